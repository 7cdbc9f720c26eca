import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { ReplyRelay } from '../../api/src/chat/run/reply-relay.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

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

/** 64 KiB of text per delta: the socket fills after a few hundred */
const DELTA = 'x'.repeat(65_536 - 8);
/** relaying stops here if the socket never filled (the test then fails: no stream stalled) */
const MAX_DELTAS = 1_000;

interface RawStream {
  res: IncomingMessage;
  /** `data:` payloads of plain messages, parsed */
  events: { type: string; runId?: string; offset?: number; text?: string }[];
  close: () => void;
}

/** Opens the visitor's event stream raw and resolves once `connected` arrived. */
async function openRaw(visitor: TestVisitor): Promise<RawStream> {
  const { ticket } = await visitor.api.events.ticket.mutate();
  const { port } = new URL(heed.url);
  const path = `/trpc/events.subscribe?input=${encodeURIComponent(JSON.stringify({ lastEventId: null }))}&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream' } }, (res) => {
      const stream: RawStream = { res, events: [], close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: connected')) resolve(stream);
          const data = block.split('\n').find((line) => line.startsWith('data: {'));
          if (data && !block.startsWith('event:')) stream.events.push(JSON.parse(data.slice(6)));
        }
      });
      res.on('error', () => {});
    });
    req.on('error', (err) => (/socket hang up|aborted/.test(String(err)) ? undefined : reject(err)));
    req.end();
  });
}

const stalledStreams = async () => (await heed.services.metrics.sseStalled.get()).values[0]?.value ?? 0;
const openStreams = async () => (await heed.services.metrics.sseConnections.get()).values[0]?.value ?? 0;

/**
 * Relays deltas until the stream stays stalled: its socket (Node's buffer and the kernel's, both
 * ways) is full and a wait for 'drain' does not end by itself. One write past Node's
 * high-water mark stalls a stream only until the kernel takes the bytes. Returns the deltas relayed.
 */
async function fillUntilStalled(relay: ReplyRelay): Promise<number> {
  for (let relayed = 1; relayed <= MAX_DELTAS; relayed++) {
    await relay.delta(DELTA);
    if ((await stalledStreams()) === 0) continue;
    await new Promise((r) => setTimeout(r, 300));
    if ((await stalledStreams()) > 0) return relayed;
  }
  throw new Error(`no stream stalled after ${MAX_DELTAS} deltas of ${DELTA.length} characters`);
}

/** A visitor with a pending message, its run claimed as a worker would, and a relay for its reply. */
async function claimedRun() {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'tell me everything');
  const batch = await claimBatch(heed.services, { conversationId, workerId: 'drain-test', leaseMs: 60_000 });
  if (!batch) throw new Error('the batch was not claimed');
  return { visitor, batch, relay: new ReplyRelay(heed.services.redis, heed.services.keys, batch) };
}

test('a client that stops reading fills its socket, the stream waits for drain, and every delta arrives in order, merged, once it reads again', async () => {
  const { visitor, batch, relay } = await claimedRun();
  const stream = await openRaw(visitor);
  await heed.until('the stream to hold the run', () => stream.events.some((e) => e.type === 'reply.snapshot' || e.type === 'run.started'));
  stream.res.pause();

  let relayed = await fillUntilStalled(relay);
  // more while the stream waits: these queue in its inbox
  for (let i = 0; i < 20; i++, relayed++) await relay.delta(DELTA);
  await relay.delta('the end');
  expect(await stalledStreams()).toBe(1);

  stream.res.resume();
  const total = relayed * DELTA.length + 'the end'.length;
  const deltas = () => stream.events.filter((e) => e.type === 'reply.delta' && e.runId === batch.runId);
  const received = () => deltas().reduce((n, e) => n + e.text!.length, 0);
  await heed.until('every delta to arrive', () => received() >= total, 30_000);
  expect(await stalledStreams()).toBe(0);

  const got = deltas();
  let offset = 0;
  for (const e of got) {
    expect(e.offset).toBe(offset);
    offset += e.text!.length;
  }
  expect(offset).toBe(total);
  expect(got.map((e) => e.text).join('').endsWith(`${DELTA}the end`)).toBe(true);
  // what queued while the client was stalled went out as fewer, larger events
  expect(got.length).toBeLessThan(relayed + 1);
  stream.close();
});

test('a stalled client that goes away while the stream waits for drain frees its stream', async () => {
  const { visitor, relay } = await claimedRun();
  const before = await openStreams();
  const stream = await openRaw(visitor);
  await heed.until('the stream to count as open', async () => (await openStreams()) === before + 1);
  stream.res.pause();
  await fillUntilStalled(relay);

  stream.close();
  await heed.until('the stream to be closed', async () => (await openStreams()) === before);
  expect(await stalledStreams()).toBe(0);
});
