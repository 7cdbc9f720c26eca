import { Agent, type ClientRequest, request } from 'node:http';
import { preciseNow } from '../stats.ts';

/** Publish stamps the publisher puts in each delta's text (publisher.ts). */
export const STAMP = /⟨t:(\d+(?:\.\d+)?)⟩/g;

/** What one stream has received so far. */
export interface StreamTally {
  /** deltas received (one per stamp: a delta carries one) */
  deltas: number;
  /** snapshots after the first (each repairs a gap: deltas this stream missed arrive inside it) */
  snapshots: number;
  /** a delta whose offset was not where the previous one ended (out of order or repeated) */
  misordered: number;
  /** the stream ended or failed */
  closed: string | null;
}

/** Called for every delta received with its (publish → parsed) latency in ms and its stamp (the publish time, as sent). */
export type OnDelta = (latencyMs: number, stamp: string) => void;

/** One socket per stream, no pooling limits: 5,000 event streams as 5,000 browsers hold them. */
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/**
 * One visitor's event stream, opened the way the widget opens it (widget/src/state/trpc-wire.ts):
 * `GET {url}/trpc/events.subscribe?input=<json>&connectionParams=<json>` with the stream
 * ticket, read as SSE. A lean client (node:http, `data:` lines parsed here) so the bench's own
 * CPU stays small beside the API's. Resolves once the server's `connected` event arrived.
 */
export function openStream(
  url: string,
  ticket: string,
  origin: string,
  onDelta: OnDelta,
): Promise<{ tally: StreamTally; close: () => void }> {
  const input = encodeURIComponent(JSON.stringify({ lastEventId: null }));
  const params = encodeURIComponent(JSON.stringify({ ticket }));
  const tally: StreamTally = { deltas: 0, snapshots: 0, misordered: 0, closed: null };
  /** text length this client holds per run (the widget's own bookkeeping) */
  const held = new Map<string, number>();
  return new Promise((resolve, reject) => {
    let req: ClientRequest | null = null;
    let connected = false;
    const fail = (why: string) => {
      tally.closed ??= why;
      if (!connected) reject(new Error(why));
    };
    req = request(
      `${url}/trpc/events.subscribe?input=${input}&connectionParams=${params}`,
      { agent, headers: { accept: 'text/event-stream', origin } },
      (res) => {
        if (res.statusCode !== 200) return fail(`HTTP ${res.statusCode}`);
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const now = preciseNow();
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) name = line.slice(6).trim();
              else if (line.startsWith('data:')) data += line.slice(5).trimStart();
            }
            if (name === 'connected') {
              connected = true;
              resolve({ tally, close: () => req?.destroy() });
            } else if (name === 'serialized-error') fail(`stream error: ${data}`);
            else if (name === 'return') fail('stream returned');
            else if (name === 'message' && data)
              onEvent(JSON.parse(data) as { type: string; runId?: string; offset?: number; text?: string }, now);
          }
        });
        res.on('end', () => fail('stream ended'));
        res.on('error', (err) => fail(err.message));
      },
    );
    req.on('error', (err) => fail(err.message));
    req.end();
  });

  function onEvent(event: { type: string; runId?: string; offset?: number; text?: string }, now: number) {
    if (event.type === 'reply.delta') {
      if (event.offset !== (held.get(event.runId!) ?? 0)) tally.misordered++;
      held.set(event.runId!, event.offset! + event.text!.length);
      for (const m of event.text!.matchAll(STAMP)) {
        tally.deltas++;
        onDelta(now - Number(m[1]), m[1]!);
      }
    } else if (event.type === 'reply.snapshot') {
      // the one a stream gets on connecting holds no stamp yet (the runs start empty)
      if (event.text) tally.snapshots++;
      held.set(event.runId!, event.text!.length);
    }
  }
}

/** Ends every stream's socket. */
export const closeStreams = () => agent.destroy();
