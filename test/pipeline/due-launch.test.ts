import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import type { BatchTiming } from '../../api/src/chat/schedule/due-batches.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A worker launches the batch its last poll saw coming at its due time, without polling again
 * (that poll was half of the time from a batch's due time to its claim). What keeps
 * this safe is the claim itself: asked to claim only a due batch, it refuses one whose time a
 * later message moved, even one whose send never woke the worker (a lost Redis message).
 */
const DEBOUNCE_MS = 1_500;
let heed: TestHeed;
beforeAll(async () => {
  // no idle polls: after a send's own poll, only the due time (or a wake-up) moves the worker
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: String(DEBOUNCE_MS), WORKER_POLL_MS: '60000' } });
});
afterAll(() => heed?.stop());

const claim = (conversationId: string, onlyIfDue: BatchTiming) =>
  claimBatch(heed.services, { conversationId, workerId: 'test', leaseMs: 30_000, onlyIfDue });

/** A pending message written without a send's wake-up, as if the wake-up were lost. */
const unannounced = (conversationId: string, visitorId: string, content: string) =>
  heed.services.db.message.create({
    data: { conversationId, visitorId, role: 'user', content, state: 'pending' },
    select: { id: true, createdAt: true },
  });

test('a claim for a due batch only is refused before the debounce ends and taken once it has, or once max wait has', async () => {
  await heed.stopWorkers();
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Do you ship to Norway?');

  expect(await claim(conversationId, { settleMs: 60_000, debounceMs: 60_000, maxWaitMs: 120_000 })).toBeNull();
  const held = await heed.services.db.message.findMany({ where: { conversationId }, select: { state: true, runId: true } });
  expect(held).toEqual([{ state: 'pending', runId: null }]);
  expect(await heed.services.db.run.count({ where: { conversationId } })).toBe(0);

  // still within its debounce, but past max wait since its oldest message: due
  const batch = await claim(conversationId, { settleMs: 60_000, debounceMs: 60_000, maxWaitMs: 0 });
  expect(batch?.messageIds).toHaveLength(1);
  await heed.startWorker();
});

test("a message that came without a wake-up moves the batch's time: the worker claims at the new time, both messages in one turn", async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'Yes, to Norway and Sweden.' });
  await visitor.send(conversationId, 'Do you ship to Norway?');
  // inside the first message's debounce (it is due 1.5 s after it), the second arrives unannounced
  const second = await unannounced(conversationId, visitor.visitorId, 'And to Sweden?');

  const done = await events.waitFor((e) => e.type === 'reply.completed', 15_000);
  expect(done.type === 'reply.completed' && done.message.content).toBe('Yes, to Norway and Sweden.');
  const runs = await heed.services.db.run.findMany({ where: { conversationId }, select: { startedAt: true } });
  expect(runs).toHaveLength(1);
  // claimed by the rule (the database's own clock on both sides): not at the first message's due time
  expect(runs[0]!.startedAt.getTime()).toBeGreaterThanOrEqual(second.createdAt.getTime() + DEBOUNCE_MS);
  const claimed = await heed.services.db.message.findMany({ where: { conversationId, role: 'user' }, select: { state: true } });
  expect(claimed).toEqual([{ state: 'answered' }, { state: 'answered' }]);
  expect(JSON.stringify(heed.model.requests.at(-1)?.body.messages)).toContain('And to Sweden?');
  events.close();
});

test('a launched claim that hangs (its conversation row locked elsewhere) does not hold the worker: another conversation is answered meanwhile', async () => {
  const visitor = await heed.visitor();
  const stuck = await visitor.conversation();
  const other = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(stuck, 'Is the Ridge 40 waterproof?');
  // before its due time, another session takes the conversation's row: the claim will wait on it
  const locker = new pg.Client({ connectionString: heed.config.DATABASE_URL });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM "Conversation" WHERE id = $1 FOR UPDATE', [stuck]);
    // the batch fell due and the worker's claim now waits on that row lock
    await heed.until('the claim waiting on the locked row', async () => {
      const [row] = await heed.services.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      return (row?.n ?? 0) > 0;
    });
    heed.model.script({ text: 'Two working days.' });
    await visitor.send(other, 'How long is delivery?');
    const answered = await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === other, 10_000);
    expect(answered.type === 'reply.completed' && answered.message.content).toBe('Two working days.');
    expect(await heed.services.db.run.count({ where: { conversationId: stuck } })).toBe(0);
  } finally {
    await locker.query('ROLLBACK');
    await locker.end();
  }
  // the lock gone, the waiting claim goes through and the first conversation is answered too
  await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === stuck, 10_000);
  events.close();
});
