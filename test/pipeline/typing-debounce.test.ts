import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * The typing-aware debounce: a lone message is asked a short settle after it is sent; a visitor
 * who keeps typing after a send holds the batch (up to a debounce past their last keystroke)
 * so the next message joins it; typing before a send, or about an older message, never delays.
 */
const SETTLE_MS = 1_000;
const DEBOUNCE_MS = 4_000;
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { SEND_SETTLE_MS: String(SETTLE_MS), DEBOUNCE_MS: String(DEBOUNCE_MS), MAX_WAIT_MS: '20000' } });
});
afterAll(() => heed?.stop());

const typing = (visitor: TestVisitor, conversationId: string, after: string) =>
  visitor.api.message.typing.mutate({ conversationId, after }).then((r) => r.held);

/** Claims the batch if it is due by these waits (settle 0: only typing can hold it). */
const claimIfDue = (conversationId: string) =>
  claimBatch(heed.services, {
    conversationId,
    workerId: 'test',
    leaseMs: 30_000,
    onlyIfDue: { settleMs: 0, debounceMs: 60_000, maxWaitMs: 120_000 },
  });

test('a lone message reaches the model a settle after it is sent, well before the debounce', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'We open at nine.' });
  const sent = await visitor.send(conversationId, 'When do you open?');
  await events.waitFor((e) => e.type === 'reply.completed', 15_000);
  const [run] = await heed.services.db.run.findMany({ where: { conversationId }, select: { startedAt: true } });
  // both times are the database's own clock
  const waited = run!.startedAt.getTime() - Date.parse(sent.createdAt);
  expect(waited).toBeGreaterThanOrEqual(SETTLE_MS - 5);
  expect(waited).toBeLessThan(DEBOUNCE_MS);
  events.close();
});

test('typing after a send holds the batch, and the message typed then joins it: one run, one reply', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'Yes, both sizes are in stock.' });
  const first = await visitor.send(conversationId, 'Is the Ridge 40 in stock?');
  expect(await typing(visitor, conversationId, first.clientMessageId!)).toBe(true);
  // the visitor keeps typing past the settle; each signal moves the wait
  await heed.until('past the settle', async () => Date.now() - Date.parse(first.createdAt) > SETTLE_MS + 300, 10_000);
  expect(await typing(visitor, conversationId, first.clientMessageId!)).toBe(true);
  expect(await heed.services.db.run.count({ where: { conversationId } })).toBe(0);
  await visitor.send(conversationId, 'And the Ridge 50?');

  const done = await events.waitFor((e) => e.type === 'reply.completed', 20_000);
  expect(done.type === 'reply.completed' && done.message.content).toBe('Yes, both sizes are in stock.');
  expect(await heed.services.db.run.count({ where: { conversationId } })).toBe(1);
  const turn = JSON.stringify(heed.model.requests.at(-1)?.body.messages);
  expect(turn).toContain('Ridge 40');
  expect(turn).toContain('Ridge 50');
  events.close();
});

test('typing before a send, about an older message, or by another visitor never holds a batch', async () => {
  await heed.stopWorkers();
  try {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    // the message being typed has not been sent: the signal overtook it
    const id = randomUUID();
    expect(await typing(visitor, conversationId, id)).toBe(false);
    const first = await visitor.send(conversationId, 'Do you ship to Norway?', id);
    await visitor.send(conversationId, 'Actually, to Sweden.');
    // about the older message: typing that made the newer one
    expect(await typing(visitor, conversationId, first.clientMessageId!)).toBe(false);
    const stranger = await heed.visitor();
    expect(await typing(stranger, conversationId, first.clientMessageId!)).toBe(false);

    const batch = await claimIfDue(conversationId);
    expect(batch?.messageIds).toHaveLength(2);
    // claimed: nothing is waiting any more, so typing holds nothing
    expect(await typing(visitor, conversationId, first.clientMessageId!)).toBe(false);
  } finally {
    await heed.startWorker();
  }
});

test('typing holds the batch only up to a debounce after the last keystroke, and never past max wait', async () => {
  await heed.stopWorkers();
  try {
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    const sent = await visitor.send(conversationId, 'What sizes does the Ridge come in?');
    expect(await typing(visitor, conversationId, sent.clientMessageId!)).toBe(true);
    expect(await claimIfDue(conversationId)).toBeNull();
    // the same batch, past max wait since its message: due however recent the typing
    const late = await claimBatch(heed.services, {
      conversationId,
      workerId: 'test',
      leaseMs: 30_000,
      onlyIfDue: { settleMs: 0, debounceMs: 60_000, maxWaitMs: 0 },
    });
    expect(late?.messageIds).toHaveLength(1);
  } finally {
    await heed.startWorker();
  }
});
