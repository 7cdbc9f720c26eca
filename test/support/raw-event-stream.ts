import { type IncomingMessage, request } from 'node:http';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { ReplyRelay } from '../../api/src/chat/run/reply-relay.ts';
import type { TestHeed, TestVisitor } from './harness.ts';

/**
 * A visitor's event stream read raw over HTTP, as a slow or stalled client reads it (its
 * socket can be paused), for the tests of what the lean writer (api/src/http/event-stream-route.ts)
 * does when a client stops reading.
 */
export interface RawStream {
  res: IncomingMessage;
  /** `data:` payloads of plain messages, parsed */
  events: { type: string; runId?: string; offset?: number; text?: string }[];
  /** the last `id:` a tracked event carried: what EventSource sends again as Last-Event-ID */
  lastEventId: string | null;
  close: () => void;
}

/** 64 KiB of text per delta: a socket fills after a few hundred */
export const DELTA = 'x'.repeat(65_536 - 8);
/** relaying stops here if the socket never filled (the test then fails: no stream stalled) */
const MAX_DELTAS = 1_000;

/** Opens the visitor's event stream raw, from `lastEventId` (null: from now), and resolves once `connected` arrived. */
export async function openRawStream(heed: TestHeed, visitor: TestVisitor, lastEventId: string | null = null): Promise<RawStream> {
  const { ticket } = await visitor.api.events.ticket.mutate();
  const { port } = new URL(heed.url);
  const path = `/trpc/events.subscribe?input=${encodeURIComponent(JSON.stringify({ lastEventId }))}&connectionParams=${encodeURIComponent(JSON.stringify({ ticket }))}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream' } }, (res) => {
      const stream: RawStream = { res, events: [], lastEventId: null, close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          if (block.startsWith('event: connected')) resolve(stream);
          const data = block.split('\n').find((line) => line.startsWith('data: {'));
          if (data && !block.startsWith('event:')) stream.events.push(JSON.parse(data.slice(6)));
          const id = /^id: (\d+)$/m.exec(block);
          if (id && !block.startsWith('event:')) stream.lastEventId = id[1]!;
        }
      });
      res.on('error', () => {});
    });
    req.on('error', (err) => (/socket hang up|aborted|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.end();
  });
}

/** The one value of an unlabelled metric of this process (0 before its first change). */
const metricValue = async (metric: { get(): Promise<{ values: { value: number }[] }> }) => (await metric.get()).values[0]?.value ?? 0;
/** streams waiting for their client's socket to drain */
export const stalledStreams = (heed: TestHeed) => metricValue(heed.services.metrics.sseStalled);
export const openStreams = (heed: TestHeed) => metricValue(heed.services.metrics.sseConnections);
/** streams closed for a client that took nothing for SSE_STALL_MS */
export const cutStreams = (heed: TestHeed) => metricValue(heed.services.metrics.sseStallClosed);

/**
 * Relays deltas until the stream stays stalled: its socket (Node's buffer and the kernel's, both
 * ways) is full and a wait for 'drain' does not end by itself. One write past Node's
 * high-water mark stalls a stream only until the kernel takes the bytes. Returns the deltas relayed.
 */
export async function fillUntilStalled(heed: TestHeed, relay: ReplyRelay): Promise<number> {
  for (let relayed = 1; relayed <= MAX_DELTAS; relayed++) {
    await relay.delta(DELTA);
    if ((await stalledStreams(heed)) === 0) continue;
    await new Promise((r) => setTimeout(r, 300));
    if ((await stalledStreams(heed)) > 0) return relayed;
  }
  throw new Error(`no stream stalled after ${MAX_DELTAS} deltas of ${DELTA.length} characters`);
}

/** A visitor with a pending message, its run claimed as a worker would, and a relay for its reply. */
export async function claimedRun(heed: TestHeed) {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'tell me everything');
  const batch = await claimBatch(heed.services, { conversationId, workerId: 'drain-test', leaseMs: 60_000 });
  if (!batch) throw new Error('the batch was not claimed');
  return { visitor, batch, relay: new ReplyRelay(heed.services.redis, heed.services.keys, batch) };
}
