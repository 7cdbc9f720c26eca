/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { applyDelta, applySnapshot } from './reply-text.ts';

describe('reply text', () => {
  it('appends a delta that starts at the current end', () => {
    expect(applyDelta('Hel', { offset: 3, text: 'lo' })).to.equal('Hello');
  });
  it('trims the part of a delta it already holds', () => {
    expect(applyDelta('Hel', { offset: 1, text: 'ello' })).to.equal('Hello');
  });
  it('drops a delta wholly behind the current end', () => {
    expect(applyDelta('Hello', { offset: 0, text: 'He' })).to.equal('Hello');
  });
  it('ignores a delta beyond the end until a snapshot repairs the gap', () => {
    expect(applyDelta('He', { offset: 4, text: 'o!' })).to.equal('He');
  });
  it('replaces the text with a snapshot, even a shorter one (a restarted reply)', () => {
    expect(applySnapshot('Hello there', { text: '' })).to.equal('');
    expect(applySnapshot('', { text: 'Hello' })).to.equal('Hello');
  });
});
