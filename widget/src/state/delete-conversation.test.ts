/// <reference types="mocha" />
import { expect, waitUntil } from '@open-wc/testing';
import { HeedStore } from './store.ts';
import { ThreadSync } from './thread-sync.ts';
import { deleteConversation } from './delete-conversation.ts';
import type { StoredSend } from './outbox-storage.ts';
import { conversation, FakeApi, settle } from '../test-support/fake-api.ts';

const KEY = 'heed:outbox:delete-test@https://chat.example/';

const stored = (): StoredSend[] => JSON.parse(localStorage.getItem(KEY) ?? '[]');

/** A page with a conversation to delete and another, each with a send queued while offline. */
async function setup() {
  const gone = conversation();
  const kept = conversation();
  const api = new FakeApi({ conversations: [gone, kept] });
  const store = new HeedStore({ api, siteKey: 'test', tokens: { read: () => undefined, write: () => {} }, outboxKey: KEY });
  await store.start();
  await settle();
  const threads = new ThreadSync(store);
  threads.open(gone.id);
  api.offline = true;
  threads.send(gone.id, 'to the deleted one');
  await waitUntil(() => store.state.connection === 'offline', 'the send found the network down');
  threads.send(kept.id, 'to the other one');
  expect(stored().map((s) => s.content)).to.deep.equal(['to the deleted one', 'to the other one']);
  return { api, store, threads, gone, kept };
}

describe('deleteConversation', () => {
  beforeEach(() => localStorage.removeItem(KEY));
  afterEach(() => localStorage.removeItem(KEY));

  it('asks the server, then drops the conversation, its thread and its queued sends (here and in storage)', async () => {
    const { api, store, threads, gone, kept } = await setup();
    await deleteConversation(store, gone.id);
    expect(api.callsOf('deleteConversation')).to.deep.equal([[gone.id]]);
    expect(store.state.conversations.map((c) => c.id)).to.deep.equal([kept.id]);
    expect(store.state.threads.has(gone.id)).to.equal(false);
    expect(threads.queued).to.equal(1);
    expect(stored().map((s) => s.content)).to.deep.equal(['to the other one']);
    store.stop();
  });

  it('changes nothing when the server refuses, and rethrows', async () => {
    const { api, store, threads, gone } = await setup();
    api.deleteAnswer = async () => {
      throw new Error('Internal server error');
    };
    const err = await deleteConversation(store, gone.id).catch((e: Error) => e);
    expect((err as Error).message).to.equal('Internal server error');
    expect(store.conversation(gone.id)?.id).to.equal(gone.id);
    expect(threads.queued).to.equal(2);
    expect(stored()).to.have.length(2);
    store.stop();
  });

  it('drops the queued sends of a conversation deleted in another tab (its event)', async () => {
    const { api, store, threads, gone, kept } = await setup();
    api.emit({ type: 'conversation.deleted', conversationId: gone.id });
    expect(store.conversation(gone.id) === undefined).to.equal(true);
    expect(store.conversation(kept.id)?.id).to.equal(kept.id);
    expect(threads.queued).to.equal(1);
    expect(stored().map((s) => s.content)).to.deep.equal(['to the other one']);
    store.stop();
  });
});
