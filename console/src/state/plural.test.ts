/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { counted } from './plural.ts';
import { stateLabel } from './attention-label.ts';

describe('counted', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect([0, 1, 2, 1000].map((n) => counted(n, 'conversation'))).to.deep.equal([
      '0 conversations',
      '1 conversation',
      '2 conversations',
      '1,000 conversations',
    ]);
    expect(counted(1, 'reply')).to.equal('1 reply');
    expect(counted(3, 'reply')).to.equal('3 replies');
    expect([counted(1, 'file'), counted(2, 'file')]).to.deep.equal(['1 file', '2 files']);
  });
});

describe('stateLabel', () => {
  it('names each state in words, never the raw value', () => {
    expect(stateLabel({ failed: false, attention: 'default' })).to.equal('Nothing pending');
    expect(stateLabel({ failed: false, attention: 'input_needed' })).to.not.contain('_');
    expect(stateLabel({ failed: true, attention: 'unviewed' })).to.equal('Reply failed');
  });
});
