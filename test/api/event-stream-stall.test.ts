import { afterAll, beforeAll, expect, test } from 'vitest';
import { replayReplies } from '../support/conversation-text.ts';
import { TestHeed } from '../support/harness.ts';
import {
  claimedRun,
  cutStreams,
  DELTA,
  fillUntilStalled,
  openRawStream,
  openStreams,
  stalledStreams,
} from '../support/raw-event-stream.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';

/**
 * A client that never reads again (a tab frozen for good, a script that opens streams and
 * stops reading) would hold its stream, and the deltas queued for it, for as long as its TCP
 * connection lives. SSE_STALL_MS bounds that: the stream is closed, and a client that comes
 * back reconnects from its last event id and misses nothing.
 */
const STALL_MS = 2_000;
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { SSE_STALL_MS: String(STALL_MS) } });
});
afterAll(() => heed?.stop());

test('a client that takes nothing for SSE_STALL_MS is cut off, and reconnecting from its last event id it misses nothing', async () => {
  const { visitor, batch, relay } = await claimedRun(heed);
  const before = await openStreams(heed);
  const stream = await openRawStream(heed, visitor, '0');
  await heed.until('the stream to hold the run', () => stream.events.some((e) => e.type === 'run.started'));
  stream.res.pause();
  const relayed = await fillUntilStalled(heed, relay);
  await relay.delta('the end');

  await heed.until('the stream to be cut', async () => (await openStreams(heed)) === before, 10_000);
  expect(await cutStreams(heed)).toBe(1);
  expect(await stalledStreams(heed)).toBe(0);

  // EventSource comes back with the last id it saw: the log after it, then the run's text so far
  const again = await openRawStream(heed, visitor, stream.lastEventId);
  const whole = `${DELTA.repeat(relayed)}the end`;
  await heed.until('the reply so far', () => replayReplies(again.events as VisitorEvent[]).get(batch.runId) === whole);
  again.close();
  stream.close();
});

test('a slow client that drains within SSE_STALL_MS keeps its stream', async () => {
  const { visitor, relay } = await claimedRun(heed);
  const stream = await openRawStream(heed, visitor);
  await heed.until('the stream to hold the run', () => stream.events.some((e) => e.type === 'reply.snapshot' || e.type === 'run.started'));
  const cutBefore = await cutStreams(heed);
  const stalledBefore = await stalledStreams(heed);
  stream.res.pause();
  await fillUntilStalled(heed, relay);
  stream.res.resume();
  await heed.until('the stream to drain', async () => (await stalledStreams(heed)) === stalledBefore);
  await new Promise((r) => setTimeout(r, STALL_MS * 1.5));
  expect(await cutStreams(heed)).toBe(cutBefore);
  await relay.delta('still here');
  await heed.until('a delta after the stall', () => stream.events.some((e) => e.type === 'reply.delta' && e.text === 'still here'));
  stream.close();
});
