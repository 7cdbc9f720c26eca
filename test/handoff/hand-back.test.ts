import { afterAll, beforeAll, expect, test } from 'vitest';
import { dueBatches } from '../../api/src/chat/schedule/due-batches.ts';
import { pendingTurn } from '../../api/src/chat/context/pending-turn.ts';
import { systemPromptFor } from '../../api/src/chat/context/system-prompt.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { promptMessages } from '../support/conversation-text.ts';
import { errorOf } from './helpers.ts';

/**
 * The operator's side: replies that move unread like any reply, and hand back with the exact
 * context of the next run. Workers poll only every minute here, so a run right after hand back
 * can only come from its wake-up.
 */
let heed: TestHeed;
let ana: TestOperator;
let bo: TestOperator;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1', WORKER_POLL_MS: '60000' } });
  ana = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana' });
  bo = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Bo' });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olga' });
});
afterAll(() => heed?.stop());

const LABEL = "[Ana from the site's team wrote this, not the assistant]";

test("the holder's reply is the visitor's unread reply, answers the messages that waited, and after hand back the next run sees it as the operator's words and the unanswered messages as its batch", async () => {
  const db = heed.services.db;
  heed.model.reset();
  const visitor = await heed.visitor('Europe/Paris');
  const conversationId = await visitor.conversation();
  heed.model.script({ text: 'Hi! How can I help?' });
  await visitor.send(conversationId, 'Hello');
  await heed.until('the reply', async () => (await db.run.count({ where: { conversationId, status: 'completed' } })) === 1);
  const first = await visitor.api.conversation.get.query({ conversationId });
  await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: first.conversation.lastAssistantAt! });

  await ana.api.console.conversations.takeOver.mutate({ conversationId });
  await visitor.send(conversationId, 'I want a refund');
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);

  // only the holder writes
  const text = 'I can refund you.\nWhich order is it?';
  expect(
    await errorOf(bo.api.console.conversations.reply.mutate({ conversationId, text, clientMessageId: 'bo-reply-0001' })),
  ).toMatchObject({ code: 'CONFLICT', reason: 'not_holding' });
  const sent = await ana.api.console.conversations.reply.mutate({ conversationId, text, clientMessageId: 'ana-reply-0001' });
  expect(sent).toMatchObject({
    role: 'operator',
    content: text,
    provenance: 'operator',
    provenanceLabel: 'Ana',
    redacted: false,
    state: null,
    runId: null,
  });
  // a retried send returns the same message, stored once
  expect(await ana.api.console.conversations.reply.mutate({ conversationId, text, clientMessageId: 'ana-reply-0001' })).toEqual(sent);
  expect(await db.message.count({ where: { conversationId, role: 'operator' } })).toBe(1);

  // the one unread write: unread, excerpt = its first line, lastAssistantAt = its time
  const created = await events.waitFor((e) => e.type === 'message.created' && e.message.role === 'operator');
  expect(created.type === 'message.created' && created.message).toMatchObject({
    id: sent.id,
    provenance: 'operator',
    provenanceLabel: 'Ana',
    content: text,
  });
  const updated = await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.excerpt === 'I can refund you.');
  expect(updated.type === 'conversation.updated' && updated.conversation).toMatchObject({
    unread: true,
    attention: 'unviewed',
    live: false,
    heldBy: 'Ana',
  });
  const got = await visitor.api.conversation.get.query({ conversationId });
  expect(got.conversation).toMatchObject({
    unread: true,
    attention: 'unviewed',
    excerpt: 'I can refund you.',
    lastAssistantAt: sent.createdAt,
    heldBy: 'Ana',
  });
  expect(got.messages.at(-1)).toMatchObject({
    id: sent.id,
    role: 'operator',
    content: text,
    provenance: 'operator',
    provenanceLabel: 'Ana',
  });
  expect((await visitor.api.conversation.list.query()).conversations.find((c) => c.id === conversationId)).toMatchObject({ unread: true });
  // in the console it is a new reply for every operator but its writer
  const attentionFor = async (op: TestOperator) =>
    (await op.api.console.conversations.list.query({ search: conversationId })).items[0]?.attention;
  expect([await attentionFor(ana), await attentionFor(bo)]).toEqual(['default', 'unviewed']);
  // the message that waited is answered by the person
  expect(
    await db.message.findFirst({ where: { conversationId, content: 'I want a refund' }, select: { state: true, runId: true } }),
  ).toEqual({ state: 'answered', runId: null });

  await visitor.send(conversationId, 'Order 1234');
  await visitor.send(conversationId, 'And the shipping fee too');
  // due at once by their timing, yet not among the scheduler's batches: they wait for the person
  const due = await dueBatches(heed.services.sql, { settleMs: 0, debounceMs: 0, maxWaitMs: 0, limit: 100 });
  expect(due.due).not.toContain(conversationId);
  expect(due.next?.conversationId).not.toBe(conversationId);
  expect(await db.message.count({ where: { conversationId, state: 'pending' } })).toBe(2);
  expect(heed.model.requests).toHaveLength(1);

  // only the holder (or an owner) hands back
  expect(await errorOf(bo.api.console.conversations.handBack.mutate({ conversationId }))).toMatchObject({
    code: 'CONFLICT',
    reason: 'not_holding',
  });
  heed.model.script({ text: 'Thanks, I will refund order 1234 and its shipping fee.' });
  const handedBackAt = Date.now();
  const head = await ana.api.console.conversations.handBack.mutate({ conversationId });
  expect(head).toMatchObject({ id: conversationId, heldBy: null });
  const [, next] = await heed.model.waitForRequests(2, 10_000);
  // woken, not polled (the poll is a minute)
  expect(next!.receivedAt - handedBackAt).toBeLessThan(5_000);

  const batch = await db.message.findMany({
    where: { conversationId, content: { in: ['Order 1234', 'And the shipping fee too'] } },
    orderBy: { seq: 'asc' },
    select: { content: true, createdAt: true },
  });
  expect(promptMessages(next!)).toEqual([
    { role: 'system', content: systemPromptFor({ name: 'Test site', assistantName: null }, null) },
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! How can I help?' },
    { role: 'user', content: 'I want a refund' },
    { role: 'assistant', content: `${LABEL} ${text}` },
    { role: 'user', content: pendingTurn(batch, 'Europe/Paris') },
  ]);
  await heed.until('the reply after hand back', async () => (await db.run.count({ where: { conversationId, status: 'completed' } })) === 2);
  const transcript = await ana.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.messages.map((m) => [m.role, m.provenance, m.provenanceLabel, m.state])).toEqual([
    ['user', null, null, 'answered'],
    ['assistant', null, null, null],
    ['notice', 'operator_joined', 'Ana', null],
    ['user', null, null, 'answered'],
    ['operator', 'operator', 'Ana', null],
    ['user', null, null, 'answered'],
    ['user', null, null, 'answered'],
    ['notice', 'operator_left', 'Ana', null],
    ['assistant', null, null, null],
  ]);
  events.close();
});

test('an owner may hand back an agent’s conversation (the notice credits the owner who did it, not "Ana left"); nobody holding it changes nothing', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await ana.api.console.conversations.takeOver.mutate({ conversationId });
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  expect(await owner.api.console.conversations.handBack.mutate({ conversationId })).toMatchObject({ heldBy: null });
  expect(await owner.api.console.conversations.handBack.mutate({ conversationId })).toMatchObject({ heldBy: null });
  // the visitor's thread gets the line live: Ana did not leave, Olga handed the conversation back
  const created = await events.waitFor((e) => e.type === 'message.created' && e.message.role === 'notice');
  expect(created.type === 'message.created' && created.message).toMatchObject({ provenance: 'handed_back', provenanceLabel: 'Olga' });
  events.close();
  const thread = await visitor.api.conversation.get.query({ conversationId });
  expect(thread.messages.map((m) => [m.role, m.provenance, m.provenanceLabel])).toEqual([
    ['notice', 'operator_joined', 'Ana'],
    ['notice', 'handed_back', 'Olga'],
  ]);
  // the console's transcript reads the same notice
  const transcript = await ana.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.messages.map((m) => [m.provenance, m.provenanceLabel])).toEqual([
    ['operator_joined', 'Ana'],
    ['handed_back', 'Olga'],
  ]);
  // a reply after hand back is refused: take it over again first
  expect(
    await errorOf(ana.api.console.conversations.reply.mutate({ conversationId, text: 'Still here', clientMessageId: 'ana-late-0001' })),
  ).toMatchObject({
    code: 'CONFLICT',
    reason: 'not_holding',
  });
  // bad input is refused at the edge
  expect(
    await errorOf(ana.api.console.conversations.reply.mutate({ conversationId, text: 'x'.repeat(4001), clientMessageId: 'ana-long-0001' })),
  ).toMatchObject({ code: 'BAD_REQUEST' });
  expect(
    await errorOf(ana.api.console.conversations.reply.mutate({ conversationId, text: '   ', clientMessageId: 'ana-empty-001' })),
  ).toMatchObject({ code: 'BAD_REQUEST' });
});
