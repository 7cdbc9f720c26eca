/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { insertCanned, matchCanned, slashQuery } from './canned-match.ts';

const reply = (shortcut: string, content: string) => ({ id: shortcut, shortcut, content, updatedAt: '2026-01-01T00:00:00Z' });

describe('canned replies in the reply box', () => {
  it('finds the /shortcut being typed at the caret, only at the start of a word', () => {
    expect(slashQuery('/', 1)).to.deep.equal({ start: 0, query: '' });
    expect(slashQuery('Hi /Ref', 7)).to.deep.equal({ start: 3, query: 'ref' });
    expect(slashQuery('Line one\n/ship', 14)).to.deep.equal({ start: 9, query: 'ship' });
    expect(slashQuery('see https://shop.example/ref', 28)).to.equal(null);
    expect(slashQuery('Hi /ref and more', 16)).to.equal(null);
  });

  it('lists shortcuts that start with the query first, then those that contain it anywhere', () => {
    const replies = [
      reply('hello', 'Hi there!'),
      reply('refund', 'Refunds take 5 days.'),
      reply('returns', 'Send it back to get a refund.'),
    ];
    expect(matchCanned(replies, 'ret').map((r) => r.shortcut)).to.deep.equal(['returns']);
    expect(matchCanned(replies, 'refund').map((r) => r.shortcut)).to.deep.equal(['refund', 'returns']);
    expect(matchCanned(replies, '').map((r) => r.shortcut)).to.deep.equal(['hello', 'refund', 'returns']);
  });

  it('replaces the /query with the reply and puts the caret after it', () => {
    expect(insertCanned('Hi /ref', 3, 7, 'Refunds take 5 days.')).to.deep.equal({ text: 'Hi Refunds take 5 days.', caret: 23 });
    expect(insertCanned('/x tail', 0, 2, 'Hello')).to.deep.equal({ text: 'Hello tail', caret: 5 });
  });
});
