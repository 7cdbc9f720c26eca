import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { renewRunLease } from '../../api/src/chat/run/finish-run.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * Found by `npm run chaos`: a lease renewal that ran while a newer claim's transaction was open
 * read the fence that claim had not yet committed, succeeded, and the old run went on relaying
 * reply text for a batch the claim had retired (up to a heartbeat later).
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('a lease renewal racing a claim of the same conversation waits for it and then fails', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Where is my order?');
  const { db } = heed.services;
  const batch = await claimBatch(heed.services, { conversationId, workerId: 'old', leaseMs: 30_000 });
  if (!batch) throw new Error('nothing claimed');

  // a newer claim holds the conversation row from its fence bump until it commits
  let commit: () => void = () => {};
  const open = new Promise<void>((resolve) => (commit = resolve));
  let markBumped: () => void = () => {};
  const bumped = new Promise<void>((resolve) => (markBumped = resolve));
  const claim = db.$transaction(async (tx) => {
    await tx.$executeRaw`UPDATE "Conversation" SET fence = fence + 1 WHERE id = ${conversationId}::uuid`;
    markBumped();
    await open;
  });
  await bumped;
  const renewal = renewRunLease(heed.services.sql, batch, 30_000, 'streaming');
  const settledEarly = await Promise.race([renewal.then(() => true), new Promise((r) => setTimeout(() => r(false), 300))]);
  commit();
  await claim;
  expect(settledEarly).toBe(false);
  expect(await renewal).toBe(false);
});
