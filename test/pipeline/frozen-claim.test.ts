import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { answerBatch } from '../../api/src/chat/run/answer-batch.ts';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { ConversationLock } from '../../api/src/chat/schedule/lock.ts';
import { answerDepsOf } from '../../api/src/chat/schedule/start-worker.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A worker frozen (SIGSTOP, a long pause) inside its claim transaction wakes with the claim
 * committed and its lease already spent: the lease counts from the transaction's start. Meanwhile
 * a newer run may have taken the batch over. Seen in `npm run chaos` as stale-publish: the frozen
 * worker counted its lease from when the run began after the claim, and relayed reply text.
 */
const LEASE_MS = 2_000;
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { LEASE_MS: String(LEASE_MS) } });
});
afterAll(() => heed?.stop());

test('a run whose claim began a lease ago sends no model request, relays no reply text, and leaves the batch to a newer run', async () => {
  const { db, redis, keys } = heed.services;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Is the Ridge 40 waterproof?');
  const events = visitor.subscribe();
  heed.model.script({ text: 'Yes, the Ridge 40 is waterproof to 2,000 mm.', chunkSize: 6, chunkDelayMs: 10 });

  const lock = await ConversationLock.acquire(redis, keys.lock(conversationId), LEASE_MS);
  const batch = await claimBatch(heed.services, { conversationId, workerId: 'frozen-worker', leaseMs: LEASE_MS });
  expect(batch).not.toBeNull();
  // A newer claim holds the conversation's row (as it does while the frozen worker wakes up), so the
  // run's renewal waits on it and cannot move the lease meanwhile.
  const newer = new pg.Client({ connectionString: heed.config.DATABASE_URL });
  await newer.connect();
  await newer.query('BEGIN');
  await newer.query('SELECT 1 FROM "Conversation" WHERE id = $1 FOR UPDATE', [conversationId]);
  // held for half a second: long enough for the reply to stream, were the relay open
  const released = new Promise((r) => setTimeout(r, 500)).then(async () => {
    await newer.query('ROLLBACK');
    await newer.end();
  });
  const requestsBefore = heed.model.requests.length;
  // the worker froze right after sending the claim, for longer than the lease
  const outcome = await answerBatch(answerDepsOf(heed.services), { ...batch!, claimSentAt: Date.now() - LEASE_MS }, lock!);
  await released;

  expect(outcome).toBe('lost');
  // nor was the model paid for a reply nobody would see
  expect(heed.model.requests).toHaveLength(requestsBefore);
  await new Promise((r) => setTimeout(r, 200));
  const text = events.events.flatMap((e) =>
    (e.type === 'reply.delta' || e.type === 'reply.snapshot') && e.runId === batch!.runId ? [e.text] : [],
  );
  expect(text.join('')).toBe('');
  expect(await db.message.count({ where: { conversationId, role: 'assistant' } })).toBe(0);
  events.close();
});

test("a claim held back by another transaction's row lock dates its run from when it went on, not from its BEGIN", async () => {
  const { db } = heed.services;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Do you ship to Norway?');

  // an earlier run's final write holds the conversation's row, as it does while it commits
  const earlier = new pg.Client({ connectionString: heed.config.DATABASE_URL });
  await earlier.connect();
  await earlier.query('BEGIN');
  await earlier.query('SELECT 1 FROM "Conversation" WHERE id = $1 FOR UPDATE', [conversationId]);
  const claimed = claimBatch(heed.services, { conversationId, workerId: 'held-back-worker', leaseMs: LEASE_MS });
  await new Promise((r) => setTimeout(r, 300));
  const { rows } = await earlier.query<{ at: Date }>('SELECT clock_timestamp() AS at');
  await earlier.query('COMMIT');
  await earlier.end();

  const batch = await claimed;
  expect(batch).not.toBeNull();
  const run = await db.run.findUniqueOrThrow({ where: { id: batch!.runId }, select: { startedAt: true } });
  // the chaos checker orders runs by it: a run must not seem to start before the one it followed ended
  expect(run.startedAt.getTime()).toBeGreaterThanOrEqual(rows[0]!.at.getTime());
});
