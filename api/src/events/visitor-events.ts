import type { Services } from '../services.ts';
import type { BusMessage } from './event-bus.ts';
import type { DurableEvent, LiveEvent } from './event-types.ts';
import { readReplyText } from '../chat/run/reply-relay.ts';
import { eventCursor } from '../conversations/queries.ts';
import { logHeads } from './log-heads.ts';

/** Most log rows read per query while catching up. */
const PAGE = 500;

export type StreamItem = { id: string; event: DurableEvent } | { id: null; event: LiveEvent };

/**
 * A visitor's event stream: the durable log after `lastEventId` (no gap, no duplicate,
 * in id order), then the text so far of every reply still streaming, then live events.
 *
 * The Redis subscription is opened before the log is read, so nothing committed in
 * between is missed; a `wake` only triggers a read of the log itself, whose per-visitor
 * ordering (see transactWithEvents) makes "id > cursor" exact. Reply deltas carry their
 * offset: a delta the snapshot already covers is trimmed or dropped, and a gap (a delta
 * beyond what this stream has) is repaired by a fresh snapshot. A quiet stream checks the
 * log's head every SSE_CATCHUP_MS (log-heads.ts) and reads past its cursor when the head moved,
 * so a wake lost in a Redis outage costs a delay, never an event.
 */
export async function* visitorEvents(
  s: Services,
  visitorId: string,
  lastEventId: string | null,
  signal: AbortSignal,
): AsyncGenerator<StreamItem> {
  const inbox: BusMessage[] = [];
  /** ends the current wait for the inbox: true when something came (or the stream ended), false when it stayed quiet */
  let endWait: ((woken: boolean) => void) | null = null;
  const unsubscribe = await s.bus.subscribe(visitorId, (m) => {
    inbox.push(m);
    endWait?.(true);
  });
  // One quiet timer for the stream's life, re-armed by each wait. A timer and closures of their
  // own per wait lived until the stream's next event (~0.5 s apart in bench/fanout.ts): long
  // enough to outlive two young collections, so they were promoted and left to the old
  // generation's. Bytes promoted in the bench's 15 s window (--trace-gc-nvp): 223 MB → 139–144.
  const quiet = setTimeout(() => endWait?.(false), s.config.SSE_CATCHUP_MS);
  const onAbort = () => endWait?.(true);
  signal.addEventListener('abort', onAbort);
  try {
    let cursor = BigInt(lastEventId ?? (await eventCursor(s.db, visitorId)));
    /** length of each streaming reply this client already holds */
    const known = new Map<string, number>();
    // Runs this stream has told its client are over: ended (reply.completed / reply.failed) or
    // superseded (a newer run.started of their conversation). Their live text is dropped: a delta
    // relayed just before a newer claim can reach this stream after it (a wake-up's log read
    // overtakes it, or the Redis client held it back), and the client already moved on.
    const closed = new Set<string>();
    const newestRun = new Map<string, string>();
    // Runs whose text this stream relays: started in the log it delivered, or streaming when it
    // began. Text of any other run is dropped: after a reconnect this stream never saw the
    // run.started of a run another worker has since taken over, so `closed` alone cannot know it.
    const relayed = new Set<string>();

    // Fan-out lag: from the publisher's `at` (a wake is published right after its commit; a
    // delta as it is relayed) to the moment this stream hands the item over to tRPC's SSE
    // writer (socket buffering after that is not seen). Measured once per wake that
    // delivered rows (a wake whose rows an earlier read already delivered is not counted)
    // and per live event delivered. Events found by the first read or the quiet-stream
    // re-read have no publish time and are not measured. Across hosts it includes their
    // clock skew; a negative lag (skew) counts as 0.
    const observeLag = (kind: 'durable' | 'live', at: number | undefined) => {
      if (at !== undefined) s.metrics.fanoutLag.observe({ kind }, Math.max(0, Date.now() - at) / 1000);
    };
    const catchUp = async function* (publishedAt?: number): AsyncGenerator<StreamItem> {
      let lagPending = publishedAt;
      for (;;) {
        const rows = await s.db.event.findMany({
          where: { visitorId, id: { gt: cursor } },
          orderBy: { id: 'asc' },
          take: PAGE,
          select: { id: true, payload: true },
        });
        for (const row of rows) {
          cursor = row.id;
          const event = row.payload as unknown as DurableEvent;
          if (event.type === 'reply.completed' || event.type === 'reply.failed') {
            known.delete(event.runId);
            closed.add(event.runId);
            relayed.delete(event.runId);
          }
          if (event.type === 'run.started') {
            const previous = newestRun.get(event.conversationId);
            if (previous && previous !== event.runId) {
              closed.add(previous);
              relayed.delete(previous);
            }
            newestRun.set(event.conversationId, event.runId);
            relayed.add(event.runId);
          }
          observeLag('durable', lagPending);
          lagPending = undefined;
          yield { id: row.id.toString(), event };
        }
        if (rows.length < PAGE) return;
      }
    };
    /** A run is new to this stream: read the log first (its run.started may be there, its wake lost or late). */
    const unknownRun = (runId: string) => !relayed.has(runId) && !closed.has(runId);
    const snapshot = async (conversationId: string, runId: string): Promise<StreamItem> => {
      const text = await readReplyText(s.redis, s.keys, runId);
      known.set(runId, text.length);
      return { id: null, event: { type: 'reply.snapshot', conversationId, runId, text } };
    };

    yield* catchUp();
    for (const run of await streamingRuns(s, visitorId)) {
      if (closed.has(run.id)) continue;
      relayed.add(run.id);
      if (!newestRun.has(run.conversationId)) newestRun.set(run.conversationId, run.id);
      yield await snapshot(run.conversationId, run.id);
    }

    while (!signal.aborted) {
      const message = inbox.shift();
      if (!message) {
        // A wake lost with a Redis blip (pub/sub does not buffer) only delays events: when
        // nothing arrives for a while, the log is read anyway.
        const woken = await new Promise<boolean>((resolve) => {
          endWait = resolve;
          quiet.refresh();
        });
        endWait = null;
        // the log's head first (gathered with every other quiet stream's): most quiet streams have nothing to read
        if (!woken && !signal.aborted && (await logHeads(s.db).head(visitorId)) > cursor) yield* catchUp();
        continue;
      }
      if (message.kind === 'wake') {
        yield* catchUp(message.at);
        continue;
      }
      const event = message.event;
      if (unknownRun(event.runId)) yield* catchUp();
      if (!relayed.has(event.runId)) continue;
      if (event.type === 'reply.snapshot') {
        known.set(event.runId, event.text.length);
        observeLag('live', message.at);
        yield { id: null, event };
        continue;
      }
      const have = known.get(event.runId) ?? 0;
      const end = event.offset + event.text.length;
      if (end <= have) continue;
      if (event.offset > have) {
        yield await snapshot(event.conversationId, event.runId);
        continue;
      }
      observeLag('live', message.at);
      // Deltas of this run queued right behind it (the stream fell behind: a burst, a slow
      // client, a busy process) go out as one: the client's text is the same, and each
      // SSE event costs the process far more than its bytes (bench/fanout.ts: ~0.3 ms of CPU
      // per event through tRPC's stream pipeline), so a backlog shrinks instead of growing.
      let text = event.text.slice(have - event.offset);
      let merged = end;
      for (let next = inbox[0]; next?.kind === 'live' && next.event.type === 'reply.delta' && next.event.runId === event.runId && next.event.offset === merged; next = inbox[0]) {
        inbox.shift();
        text += next.event.text;
        merged += next.event.text.length;
        observeLag('live', next.at);
      }
      known.set(event.runId, merged);
      yield { id: null, event: { ...event, offset: have, text } };
    }
  } finally {
    clearTimeout(quiet);
    signal.removeEventListener('abort', onAbort);
    await unsubscribe();
  }
}

async function streamingRuns(s: Services, visitorId: string) {
  return s.db.run.findMany({
    where: { status: { in: ['claimed', 'streaming'] }, leaseUntil: { gt: new Date() }, conversation: { visitorId } },
    select: { id: true, conversationId: true },
  });
}
