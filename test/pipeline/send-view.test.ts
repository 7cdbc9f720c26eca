import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { completeRun } from '../../api/src/chat/run/finish-run.ts';
import { loadConversationView } from '../../api/src/conversations/queries.ts';
import { messageSelect, toMessageView } from '../../api/src/conversations/views.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A send builds its `conversation.updated` view from the one statement that stores the row
 * (send-message.ts), not through the ORM's reads, and a claim from its claim statement's snapshot
 * (claim-batch.ts), and a stored reply from its own two statements (store-reply.ts): each must say exactly what `loadConversationView` says of the same committed
 * state, whatever the conversation holds.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

const claim = (conversationId: string) => claimBatch(heed.services, { conversationId, workerId: 'test', leaseMs: 30_000 });

const lastEvent = async (visitorId: string, type: VisitorEvent['type']) => {
  const row = await heed.services.db.event.findFirstOrThrow({
    where: { visitorId, type },
    orderBy: { id: 'desc' },
    select: { payload: true },
  });
  return row.payload as Record<string, unknown>;
};

test('the view a send emits equals the view read back: first message (fallback title), then with a run, a question, todos and a holder', async () => {
  const db = heed.services.db;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();

  const first = await visitor.send(conversationId, 'Where is my parcel? It was due on Monday.');
  expect(first).toEqual(toMessageView(await db.message.findUniqueOrThrow({ where: { id: first.id }, select: messageSelect })));
  expect((await lastEvent(visitor.visitorId, 'message.created')).message).toEqual(first);
  const firstView = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation as { title: string; live: boolean };
  expect(firstView).toEqual(await loadConversationView(db, conversationId));
  expect(firstView).toMatchObject({ title: 'Where is my parcel? It was due on Monday.', live: true });

  // everything else a conversation view shows, written as the worker and the console would
  const run = await db.run.create({
    data: { conversationId, fence: 1, status: 'streaming', workerId: 'test', leaseUntil: new Date(Date.now() + 60_000) },
  });
  const question = await db.message.create({
    data: { conversationId, visitorId: visitor.visitorId, role: 'assistant', content: 'Which address?', runId: run.id },
  });
  await db.inputRequest.create({
    data: {
      conversationId,
      runId: run.id,
      toolCallId: 'call-1',
      messageId: question.id,
      question: 'Which address?',
      choices: ['Home', 'Work'],
    },
  });
  for (const text of ['find the parcel', 'call the courier']) await db.todo.create({ data: { conversationId, text, addedRunId: run.id } });
  const operator = await db.operator.create({ data: { email: `ana-${conversationId.slice(0, 8)}@example.com`, name: 'Ana' } });
  await db.conversation.update({
    where: { id: conversationId },
    data: { heldById: operator.id, waitingSince: new Date(), lastReadAt: new Date(Date.now() - 60_000) },
  });
  // the team's status and the visitor's rating ride every view too (whatever a send does to them)
  await db.conversation.update({
    where: { id: conversationId },
    data: {
      status: 'snoozed',
      snoozedUntil: new Date(Date.now() + 3_600_000),
      resolvedAt: new Date(Date.now() - 120_000),
      rating: 1,
      ratedAt: new Date(Date.now() - 60_000),
    },
  });

  const second = await visitor.send(conversationId, 'The work one, please');
  expect((await lastEvent(visitor.visitorId, 'message.created')).message).toEqual(second);
  const secondView = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation;
  expect(secondView).toEqual(await loadConversationView(db, conversationId));
  expect(secondView).toMatchObject({
    title: 'Where is my parcel? It was due on Monday.',
    liveRunId: run.id,
    heldBy: 'Ana',
    waitingForPerson: true,
    inputNeeded: true,
  });
  expect((secondView as { openTodos: unknown[] }).openTodos).toHaveLength(2);
});

test('a retried send returns the stored row and appends no event', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const sent = await visitor.send(conversationId, 'hello', 'retry-key-1');
  const events = await heed.services.db.event.count({ where: { visitorId: visitor.visitorId } });
  const again = await Promise.all([
    visitor.send(conversationId, 'hello', 'retry-key-1'),
    visitor.send(conversationId, 'hello', 'retry-key-1'),
  ]);
  expect(again).toEqual([sent, sent]);
  expect(await heed.services.db.event.count({ where: { visitorId: visitor.visitorId } })).toBe(events);
  expect(await heed.services.db.message.count({ where: { conversationId } })).toBe(1);
});

test('the view a claim emits equals the view read back: its run is the live one, also when it took back only a failed message', async () => {
  const db = heed.services.db;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const first = await visitor.send(conversationId, 'Where is my parcel?');

  // only a failed message (an earlier run's failure): the claim statement's snapshot saw nothing awaiting a reply
  await db.message.update({ where: { id: first.id }, data: { state: 'failed' } });
  const retry = await claim(conversationId);
  expect(retry?.messageIds).toEqual([first.id]);
  const retryView = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation;
  expect(retryView).toEqual(await loadConversationView(db, conversationId));
  expect(retryView).toMatchObject({ liveRunId: retry!.runId, live: true });

  // a new message beside it, once that run ended: the newer run is the live one
  await db.run.update({ where: { id: retry!.runId }, data: { status: 'failed', endedAt: new Date() } });
  await db.message.update({ where: { id: first.id }, data: { state: 'failed' } });
  await visitor.send(conversationId, 'It was due on Monday.');
  const batch = await claim(conversationId);
  expect(batch?.messageIds).toHaveLength(2);
  const view = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation;
  expect(view).toEqual(await loadConversationView(db, conversationId));
  expect(view).toMatchObject({ liveRunId: batch!.runId, live: true });
});

test('the message and view a stored reply emits equal what is read back: nothing awaited after it, then a message sent during the next run still awaited', async () => {
  const db = heed.services.db;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const asked = await visitor.send(conversationId, 'Where is my parcel?');
  await db.conversation.update({ where: { id: conversationId }, data: { lastReadAt: new Date(Date.now() - 60_000) } });

  const batch = await claim(conversationId);
  await db.todo.create({ data: { conversationId, text: 'find the parcel', addedRunId: batch!.runId } });
  const reply = {
    text: 'It left the warehouse today.\nMore below.',
    attempts: 2,
    promptTokens: 120,
    completionTokens: 8,
    firstTokenAt: new Date(),
  };
  await completeRun(heed.services, batch!, reply);
  const stored = (await lastEvent(visitor.visitorId, 'reply.completed')).message as { id: string };
  expect(stored).toEqual(toMessageView(await db.message.findUniqueOrThrow({ where: { id: stored.id }, select: messageSelect })));
  expect(stored).toMatchObject({ role: 'assistant', content: reply.text, runId: batch!.runId, state: null });
  const view = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation;
  expect(view).toEqual(await loadConversationView(db, conversationId));
  expect(view).toMatchObject({ live: false, unread: true, excerpt: 'It left the warehouse today.' });
  // the unread write's two times are the message's, the run ended then, and its batch is answered
  const row = await db.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: { lastAssistantAt: true, updatedAt: true, titleRequestedAt: true },
  });
  const message = await db.message.findUniqueOrThrow({ where: { id: stored.id }, select: { createdAt: true } });
  expect(row.lastAssistantAt).toEqual(message.createdAt);
  expect(row.updatedAt).toEqual(message.createdAt);
  expect(row.titleRequestedAt).not.toBeNull();
  const run = await db.run.findUniqueOrThrow({
    where: { id: batch!.runId },
    select: { status: true, endedAt: true, attempts: true, promptTokens: true, completionTokens: true },
  });
  expect(run).toEqual({ status: 'completed', endedAt: message.createdAt, attempts: 2, promptTokens: 120, completionTokens: 8 });
  expect(await db.message.findUniqueOrThrow({ where: { id: asked.id }, select: { state: true } })).toEqual({ state: 'answered' });

  // a message sent while the next run streams: the reply answers the batch, the new one still awaits its own
  await visitor.send(conversationId, 'And when will it arrive?');
  const next = await claim(conversationId);
  await visitor.send(conversationId, 'Also, can I change the address?');
  await completeRun(heed.services, next!, { text: 'Tomorrow.', attempts: 1, promptTokens: null, completionTokens: null });
  const during = (await lastEvent(visitor.visitorId, 'conversation.updated')).conversation;
  expect(during).toEqual(await loadConversationView(db, conversationId));
  expect(during).toMatchObject({ live: true, excerpt: 'Tomorrow.' });
});
