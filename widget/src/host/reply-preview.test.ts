/// <reference types="mocha" />
import { expect } from '@open-wc/testing';
import { conversation } from '../test-support/fake-api.ts';
import { ReplyPreviews } from './reply-preview.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();

describe('reply previews', () => {
  it('previews a reply that arrives while the page is open, once', () => {
    const previews = new ReplyPreviews();
    const c = conversation({ id: 'c1', lastAssistantAt: at(1), lastReadAt: at(1), excerpt: 'Old answer' });
    expect(previews.next([c], true)).to.be.null;
    const replied = { ...c, lastAssistantAt: at(5), excerpt: 'Your parcel left the depot today.' };
    expect(previews.next([replied], true)).to.deep.equal({ conversationId: 'c1', text: 'Your parcel left the depot today.', at: at(5) });
    expect(previews.next([replied], true)).to.be.null;
  });

  it('says nothing about replies that were there when the list first loaded, nor before it loaded', () => {
    const previews = new ReplyPreviews();
    const unread = conversation({ id: 'c1', lastAssistantAt: at(5), lastReadAt: null, excerpt: 'Hi' });
    expect(previews.next([unread], false)).to.be.null;
    expect(previews.next([unread], true)).to.be.null;
  });

  it('skips a reply already read (in another tab), and a failure', () => {
    const previews = new ReplyPreviews();
    previews.next([conversation({ id: 'c1', lastAssistantAt: null, excerpt: null })], true);
    const read = conversation({ id: 'c1', lastAssistantAt: at(5), lastReadAt: at(5), excerpt: 'Hi' });
    expect(previews.next([read], true)).to.be.null;
    const failed = { ...read, lastAssistantAt: at(9), lastReadAt: null, failed: true, excerpt: 'The assistant could not be reached.' };
    expect(previews.next([failed], true)).to.be.null;
  });

  it('previews the newest of several replies, in a conversation new since the last look too', () => {
    const previews = new ReplyPreviews();
    previews.next([], true);
    const a = conversation({ id: 'a', lastAssistantAt: at(3), lastReadAt: null, excerpt: 'First' });
    const b = conversation({ id: 'b', lastAssistantAt: at(4), lastReadAt: null, excerpt: 'Second' });
    expect(previews.next([a, b], true)?.conversationId).to.equal('b');
  });
});
