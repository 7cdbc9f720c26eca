import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed, type EventLog, type TestVisitor } from '../support/harness.ts';
import { gate } from '../support/gate.ts';

/**
 * The unread marker: the client marks read with the `lastAssistantAt` it displayed, the
 * server keeps the maximum and never goes past the newest reply, so a reply that arrives
 * while a read is in flight stays unread.
 */
let heed: TestHeed;
beforeAll(async () => {
  // batching is not under test here: a short debounce keeps each exchange quick
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: '20' } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

/** Sends a message and waits for its reply; returns the reply's time as the visitor sees it. */
async function exchange(visitor: TestVisitor, events: EventLog, conversationId: string, text: string, reply: string): Promise<string> {
  const seen = events.events.length;
  heed.model.script({ text: reply });
  await visitor.send(conversationId, text);
  await heed.until(`the reply "${reply}"`, () =>
    events.events
      .slice(seen)
      .some((e) => e.type === 'reply.completed' && e.conversationId === conversationId && e.message.content === reply),
  );
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.excerpt).toBe(reply);
  return conversation.lastAssistantAt!;
}

/** The read marker as stored, straight from the database. */
async function storedLastReadAt(conversationId: string): Promise<string | null> {
  const row = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { lastReadAt: true } });
  return row.lastReadAt?.toISOString() ?? null;
}

async function open(): Promise<{ visitor: TestVisitor; events: EventLog; conversationId: string }> {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  return { visitor, events: visitor.subscribe(), conversationId };
}

test('marking read with the reply time the visitor saw clears unread everywhere', async () => {
  const { visitor, events, conversationId } = await open();
  const t1 = await exchange(visitor, events, conversationId, 'Hi', 'Hello! How can I help?');
  expect((await visitor.api.conversation.list.query()).conversations[0]).toMatchObject({
    id: conversationId,
    unread: true,
    attention: 'unviewed',
  });

  const marked = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: t1 });
  expect(marked).toMatchObject({ unread: false, attention: 'default', lastReadAt: t1 });
  expect(await storedLastReadAt(conversationId)).toBe(t1);
  expect((await visitor.api.conversation.list.query()).conversations[0]).toMatchObject({ id: conversationId, unread: false });
  // other tabs learn it from the event stream
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversationId === conversationId && e.conversation.lastReadAt === t1);
  events.close();
});

test('a mark carrying an older reply time, sent while a newer reply arrived, leaves the conversation unread', async () => {
  const { visitor, events, conversationId } = await open();
  const t1 = await exchange(visitor, events, conversationId, 'What are your hours?', 'We are open 9 to 5.');
  // the visitor reads reply 1 but the mark is delayed; meanwhile reply 2 lands
  const t2 = await exchange(visitor, events, conversationId, 'And on Sundays?', 'Sundays we are closed.');
  expect(Date.parse(t2)).toBeGreaterThan(Date.parse(t1));

  const marked = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: t1 });
  expect(marked).toMatchObject({ unread: true, attention: 'unviewed', lastAssistantAt: t2, lastReadAt: t1 });
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.unread).toBe(true);
  events.close();
});

test('the read marker never moves backwards', async () => {
  const { visitor, events, conversationId } = await open();
  const t1 = await exchange(visitor, events, conversationId, 'First', 'First reply.');
  const t2 = await exchange(visitor, events, conversationId, 'Second', 'Second reply.');

  await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: t2 });
  expect(await storedLastReadAt(conversationId)).toBe(t2);

  // a stale tab marks with the older reply it displayed
  const stale = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: t1 });
  expect(stale).toMatchObject({ unread: false, lastReadAt: t2 });
  expect(await storedLastReadAt(conversationId)).toBe(t2);
  const ancient = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: '2000-01-01T00:00:00.000Z' });
  expect(ancient).toMatchObject({ unread: false, lastReadAt: t2 });
  expect(await storedLastReadAt(conversationId)).toBe(t2);
  events.close();
});

test('a mark with a future time never marks a reply that does not exist yet as read', async () => {
  const { visitor, events, conversationId } = await open();
  const t1 = await exchange(visitor, events, conversationId, 'Hello', 'Hi there.');

  const future = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: '2099-01-01T00:00:00.000Z' });
  expect(future).toMatchObject({ unread: false, lastReadAt: t1 });
  expect(await storedLastReadAt(conversationId)).toBe(t1);

  await exchange(visitor, events, conversationId, 'One more question', 'Here is the answer.');
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation).toMatchObject({ unread: true, attention: 'unviewed', lastReadAt: t1 });
  events.close();
});

test('marking read before the first reply exists does not hide that reply when it comes', async () => {
  const { visitor, events, conversationId } = await open();
  const marked = gate();
  heed.model.script({ text: 'Thanks for waiting.', until: marked.opened });
  await visitor.send(conversationId, 'Anyone there?');
  const early = await visitor.api.conversation.markRead.mutate({
    conversationId,
    lastAssistantAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  marked.open();
  expect(early).toMatchObject({ lastAssistantAt: null, lastReadAt: null, unread: false });

  await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === conversationId);
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation).toMatchObject({ unread: true, lastReadAt: null });
  expect(await storedLastReadAt(conversationId)).toBeNull();
  events.close();
});

test('a timestamp with a zone offset marks the same instant as its UTC form', async () => {
  const { visitor, events, conversationId } = await open();
  const t1 = await exchange(visitor, events, conversationId, 'Bonjour', 'Bonjour !');
  // the same instant written as a +01:00 local time, as a browser in Paris might send it
  const local = new Date(Date.parse(t1) + 60 * 60_000).toISOString().replace('Z', '+01:00');
  expect(Date.parse(local)).toBe(Date.parse(t1));
  const marked = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: local });
  expect(marked).toMatchObject({ unread: false, lastReadAt: t1 });
  events.close();
});
