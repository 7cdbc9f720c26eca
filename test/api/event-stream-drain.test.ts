import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { claimedRun, DELTA, fillUntilStalled, openRawStream, openStreams, stalledStreams } from '../support/raw-event-stream.ts';

/**
 * A client that stops reading its event stream (a phone on a dead network, a frozen tab) must
 * neither make the API buffer without bound in its socket nor lose a word: the lean writer
 * (api/src/http/event-stream-route.ts) stops pulling events when the socket is full and waits
 * for 'drain'; the reply's deltas wait in the stream's inbox and go out merged once the client
 * reads again. The run is claimed and relayed by hand (no worker) so the test controls the flow.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('a client that stops reading fills its socket, the stream waits for drain, and every delta arrives in order, merged, once it reads again', async () => {
  const { visitor, batch, relay } = await claimedRun(heed);
  const stream = await openRawStream(heed, visitor);
  await heed.until('the stream to hold the run', () => stream.events.some((e) => e.type === 'reply.snapshot' || e.type === 'run.started'));
  stream.res.pause();

  let relayed = await fillUntilStalled(heed, relay);
  // more while the stream waits: these queue in its inbox
  for (let i = 0; i < 20; i++, relayed++) await relay.delta(DELTA);
  await relay.delta('the end');
  expect(await stalledStreams(heed)).toBe(1);

  stream.res.resume();
  const total = relayed * DELTA.length + 'the end'.length;
  const deltas = () => stream.events.filter((e) => e.type === 'reply.delta' && e.runId === batch.runId);
  const received = () => deltas().reduce((n, e) => n + e.text!.length, 0);
  await heed.until('every delta to arrive', () => received() >= total, 30_000);
  expect(await stalledStreams(heed)).toBe(0);

  const got = deltas();
  let offset = 0;
  for (const e of got) {
    expect(e.offset).toBe(offset);
    offset += e.text!.length;
  }
  expect(offset).toBe(total);
  expect(
    got
      .map((e) => e.text)
      .join('')
      .endsWith(`${DELTA}the end`),
  ).toBe(true);
  // what queued while the client was stalled went out as fewer, larger events
  expect(got.length).toBeLessThan(relayed + 1);
  stream.close();
});

test('a stalled client that goes away while the stream waits for drain frees its stream', async () => {
  const { visitor, relay } = await claimedRun(heed);
  const before = await openStreams(heed);
  const stream = await openRawStream(heed, visitor);
  await heed.until('the stream to count as open', async () => (await openStreams(heed)) === before + 1);
  stream.res.pause();
  await fillUntilStalled(heed, relay);

  stream.close();
  await heed.until('the stream to be closed', async () => (await openStreams(heed)) === before);
  expect(await stalledStreams(heed)).toBe(0);
});
