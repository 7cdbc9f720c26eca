/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { erasureResult } from '../test-support/fake-console-api.ts';
import { erasedText, erasureQuestion } from './erasure-text.ts';

describe('erasure words', () => {
  it('says what goes for an anonymous visitor, for good, what they notice and what stays', () => {
    const q = erasureQuestion({
      visitorId: 'v-1',
      identified: false,
      externalId: null,
      counts: { conversations: 3, messages: 41, attachments: 2 },
    });
    expect(q.text).to.equal(
      'Delete everything Heed holds about this visitor: 3 conversations, 41 messages and 2 files, for good. ' +
        'Their chat on the site starts afresh. A record that an erasure happened (when, by whom, how many rows) stays.',
    );
    expect(q.confirm).to.equal('Delete visitor data');
  });

  it('names an identified user by their id, with every browser they used, in the right plurals', () => {
    const q = erasureQuestion({
      visitorId: 'v-1',
      identified: true,
      externalId: 'customer-42',
      counts: { conversations: 1, messages: 1, attachments: 0 },
    });
    expect(q.text).to.contain('about user customer-42, in every browser they used: 1 conversation, 1 message and 0 files, for good.');
  });

  it('announces what the erasure removed', () => {
    expect(erasedText(erasureResult())).to.equal(
      'Visitor data deleted: 3 conversations, 41 messages and 2 files. A record of the erasure stays.',
    );
  });
});
