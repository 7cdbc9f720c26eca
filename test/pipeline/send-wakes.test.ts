import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sendWake } from '../../api/src/chat/schedule/schedule-wake.ts';
import { sendPollGapMs } from '../../api/src/chat/schedule/worker.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A send's batch is due a debounce after it, so the worker need not re-read every pending batch
 * the moment each send's wake-up arrives: wake-ups within the gap share one poll. Before, at
 * hundreds of sends a second, the worker polled back to back and PostgreSQL re-read the pending
 * batches hundreds of times a second. Anything due at once (a retry, a hand-back) still wakes it at once.
 */
const DEBOUNCE_MS = 400;
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: String(DEBOUNCE_MS) } });
});
afterAll(() => heed?.stop());

const polls = async () => (await heed.services.metrics.workerPolls.get()).values[0]?.value ?? 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const publish = (message: string) => heed.services.redis.publish(heed.services.keys.scheduleChannel(), message);

test("a hundred sends' wake-ups share polls: at most one per gap, not one each", async () => {
  const gap = sendPollGapMs(DEBOUNCE_MS);
  const before = await polls();
  const t0 = Date.now();
  for (let i = 0; i < 100; i++) {
    await publish(sendWake(randomUUID()));
    await sleep(5);
  }
  await sleep(gap + 50);
  const elapsed = Date.now() - t0;
  const made = (await polls()) - before;
  expect(made).toBeGreaterThan(0);
  // one per gap, plus the idle poll (WORKER_POLL_MS) and the ends of the window
  expect(made).toBeLessThanOrEqual(Math.ceil(elapsed / gap) + 3);
});

test('a wake-up for something due at once polls at once', async () => {
  await sleep(sendPollGapMs(DEBOUNCE_MS) + 50);
  const before = await polls();
  await publish(randomUUID());
  await heed.until('a poll', async () => (await polls()) > before, 2_000);
});

test('a sent message is still answered a debounce after it', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, 'are you there?');
  await events.waitFor((e) => e.type === 'reply.completed');
  events.close();
});
