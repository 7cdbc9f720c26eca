import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { completeRun, failRun } from '../../api/src/chat/run/finish-run.ts';
import { EventBus } from '../../api/src/events/event-bus.ts';
import { createRedis } from '../../api/src/redis/client.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * Found by `npm run chaos`: Redis restarting right after a reply committed made the wake-up
 * publish fail, the worker took that for a failed run, and the visitor saw the reply followed by
 * "Reply failed" (the run recorded failed, the conversation's excerpt a failure).
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('a reply whose wake-up cannot be published after its commit is stored once, and a late failure does not overwrite it', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Is my parcel on its way?');
  const { services } = heed;
  const batch = await claimBatch(services, { conversationId, workerId: 'test', leaseMs: 30_000 });
  if (!batch) throw new Error('nothing claimed');

  // a bus whose Redis connection is gone: every publish after the commit rejects
  const closed = await createRedis(heed.config.REDIS_URL, 'closed');
  await closed.quit();
  const notSent: unknown[] = [];
  const brokenBus = new EventBus(closed, services.subscriber, services.keys, (err) => notSent.push(err));
  await completeRun({ ...services, bus: brokenBus }, batch, {
    text: 'Yes, it left the warehouse today.',
    attempts: 1,
    promptTokens: null,
    completionTokens: null,
  });
  expect(notSent).toHaveLength(1);

  // what the worker's error path does if the completing call throws anyway (a lost COMMIT answer)
  await failRun(services.db, services.bus, batch, { code: 'model_error', attempts: 1 });
  const replies = await services.db.message.findMany({
    where: { conversationId, role: 'assistant' },
    select: { content: true, error: true },
  });
  expect(replies).toEqual([{ content: 'Yes, it left the warehouse today.', error: null }]);
  const run = await services.db.run.findUniqueOrThrow({ where: { id: batch.runId }, select: { status: true } });
  expect(run.status).toBe('completed');
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.excerpt).toBe('Yes, it left the warehouse today.');
});
