import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

/**
 * Live from the moment of sending: a conversation whose visitor messages wait for the pipeline
 * (through the debounce, before any worker claims them) is live, as is one whose run streams;
 * messages that wait for the visitor's retry after a failed reply are not.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

/** Holds every model answer until `release()`, so the test reads state while the reply is pending. */
function holdModel(reply: { text: string } | { error: { status: number } }) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  heed.model.setResponder(async () => {
    await gate;
    return reply;
  });
  return release;
}

test('right after message.send the conversation is live (in the send’s own event and in conversation.get); after the reply it is not', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  // from the list's cursor, as the widget does: the send's own update is in the stream
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  const release = holdModel({ text: 'It ships tomorrow.' });

  const sent = await visitor.send(conversationId, 'When does my order ship?');
  // the update committed with the send itself, before any worker could claim the batch
  const isSendUpdate = (e: (typeof events.events)[number]) =>
    e.type === 'conversation.updated' && e.conversation.updatedAt === sent.createdAt;
  await events.waitFor(isSendUpdate);
  const onSend = events.events.find(isSendUpdate)!;
  expect(onSend.type === 'conversation.updated' && onSend.conversation).toMatchObject({
    live: true,
    attention: 'live',
    liveRunId: null,
    failed: false,
  });
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({ live: true, attention: 'live' });
  expect((await visitor.api.conversation.list.query()).conversations[0]).toMatchObject({
    id: conversationId,
    live: true,
    attention: 'live',
  });

  release();
  await events.waitFor((e) => e.type === 'reply.completed');
  const last = await heed.until('the update after the reply', () =>
    events.events.findLast((e) => e.type === 'conversation.updated' && !e.conversation.live),
  );
  expect(last.type === 'conversation.updated' && last.conversation).toMatchObject({ live: false, attention: 'unviewed', liveRunId: null });
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({ live: false, attention: 'unviewed' });
  events.close();
});

test('failed messages waiting for a retry are not live; the retry makes the conversation live until the reply', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.setResponder(() => ({ error: { status: 400 } }));
  await visitor.send(conversationId, 'Where is my parcel?');
  await events.waitFor((e) => e.type === 'reply.failed');

  const failed = (await visitor.api.conversation.get.query({ conversationId })).conversation;
  expect(failed).toMatchObject({ live: false, failed: true, attention: 'unviewed' });

  const release = holdModel({ text: 'It is out for delivery.' });
  const before = events.events.length;
  expect(await visitor.api.message.retry.mutate({ conversationId })).toEqual({ requeued: 1 });
  const retried = await events.waitFor((e) => e.type === 'conversation.updated' && events.events.indexOf(e) >= before);
  expect(retried.type === 'conversation.updated' && retried.conversation).toMatchObject({ live: true, failed: false, attention: 'live' });

  release();
  await events.waitFor((e) => e.type === 'reply.completed');
  await heed.until(
    'not live after the reply',
    async () => !(await visitor.api.conversation.get.query({ conversationId })).conversation.live,
  );
  events.close();
});
