import type { Services } from '../services.ts';
import type { BusMessage } from './event-bus.ts';
import type { DurableEvent, LiveEvent } from './event-types.ts';
import { readReplyText } from '../chat/run/reply-relay.ts';
import { eventCursor } from '../conversations/queries.ts';
import { logHeads } from './log-heads.ts';
import { streamTicketInvalid } from '../auth/visitor-refusals.ts';

/** Most log rows read per query while catching up. */
const PAGE = 500;

export type StreamItem = { id: string; event: DurableEvent } | { id: null; event: LiveEvent };

/** Where a visitor's event stream hands its items: a client's socket, or a queue (visitor-events.ts). */
export interface StreamSink {
  /** hands one item to the client; false when the client is behind: the stream hands over nothing more until `drained()` resolves */
  write(item: StreamItem): boolean;
  /** resolves once the client caught up, or the stream's signal aborted (a client gone never catches up) */
  drained(): Promise<void>;
}

/**
 * Runs a visitor's event stream into `sink` until `signal` aborts (then resolves) or a read
 * fails (then rejects): the durable log after `lastEventId` (no gap, no duplicate, in id
 * order), then the text so far of every reply still streaming, then live events.
 *
 * The Redis subscription is opened before the log is read, so nothing committed in
 * between is missed; a `wake` only triggers a read of the log itself, whose per-visitor
 * ordering (see transactWithEvents) makes "id > cursor" exact. Reply deltas carry their
 * offset: a delta the snapshot already covers is trimmed or dropped, and a gap (a delta
 * beyond what this stream has) is repaired by a fresh snapshot. A quiet stream checks the
 * log's head every SSE_CATCHUP_MS (log-heads.ts) and reads past its cursor when the head moved,
 * so a wake lost in a Redis outage costs a delay, never an event.
 *
 * Push-based: Redis messages drive the stream, and a stream with nothing to do holds no
 * promise at all, only its subscription and its quiet timer. Pulled through an async
 * generator, each wait for the next message held the generator's promise, its consumer's
 * `next()` promise and their reactions for the ~0.5 s between a stream's deltas in
 * bench/fanout.ts: long enough to outlive two young collections, so they were promoted, and
 * the old generation's collections stalled the process (see bench/FINDINGS.md, "Fan-out").
 * @example await streamVisitorEvents(services, visitorId, lastEventId, { write, drained }, abort.signal);
 */
export function streamVisitorEvents(
  s: Services,
  visitorId: string,
  lastEventId: string | null,
  sink: StreamSink,
  signal: AbortSignal,
): Promise<void> {
  return new VisitorStream(s, visitorId, sink, signal).run(lastEventId);
}

class VisitorStream {
  private readonly inbox: BusMessage[] = [];
  private cursor = 0n;
  /** length of each streaming reply this client already holds */
  private readonly known = new Map<string, number>();
  /**
   * Runs this stream has told its client are over: ended (reply.completed / reply.failed) or
   * superseded (a newer run.started of their conversation). Their live text is dropped: a delta
   * relayed just before a newer claim can reach this stream after it (a wake-up's log read
   * overtakes it, or the Redis client held it back), and the client already moved on.
   */
  private readonly closed = new Set<string>();
  private readonly newestRun = new Map<string, string>();
  /**
   * Runs whose text this stream relays: started in the log it delivered, or streaming when it
   * began. Text of any other run is dropped: after a reconnect this stream never saw the
   * run.started of a run another worker has since taken over, so `closed` alone cannot know it.
   */
  private readonly relayed = new Set<string>();
  /** a step (the start, the inbox's messages, a quiet check) is in progress; steps never overlap */
  private busy = true;
  /** a step is queued for the microtask checkpoint: messages of one Redis read are handled together, so a run's deltas merge */
  private queued = false;
  private ended = false;
  private quiet: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private settle!: { resolve: () => void; reject: (err: unknown) => void };

  constructor(
    private readonly s: Services,
    private readonly visitorId: string,
    private readonly sink: StreamSink,
    private readonly signal: AbortSignal,
  ) {}

  run(lastEventId: string | null): Promise<void> {
    const done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.signal.addEventListener('abort', this.onAbort);
    this.step(this.start(lastEventId));
    return done;
  }

  private async start(lastEventId: string | null): Promise<void> {
    this.unsubscribe = await this.s.bus.subscribe(this.visitorId, this.onMessage);
    if (this.signal.aborted) return;
    this.cursor = BigInt(lastEventId ?? (await eventCursor(this.s.db, this.visitorId)));
    await this.catchUp();
    if (this.signal.aborted) return;
    for (const run of await streamingRuns(this.s, this.visitorId)) {
      if (this.closed.has(run.id)) continue;
      this.relayed.add(run.id);
      if (!this.newestRun.has(run.conversationId)) this.newestRun.set(run.conversationId, run.id);
      await this.emit(await this.snapshot(run.conversationId, run.id));
    }
    // one timer for the stream's life, re-armed after each step (see the class's JSDoc)
    this.quiet = setTimeout(this.onQuiet, this.s.config.SSE_CATCHUP_MS);
  }

  private readonly onMessage = (message: BusMessage) => {
    if (this.ended) return;
    this.inbox.push(message);
    if (this.busy || this.queued) return;
    this.queued = true;
    queueMicrotask(this.onQueued);
  };

  private readonly onQueued = () => {
    this.queued = false;
    if (!this.busy && !this.ended) this.step(this.handleInbox());
  };

  // A wake lost with a Redis blip (pub/sub does not buffer) only delays events: when nothing
  // arrives for a while, the log is read anyway; the log's head first (gathered with every
  // other quiet stream's): most quiet streams have nothing to read.
  private readonly onQuiet = () => {
    if (!this.busy) this.step(this.checkHead());
  };

  private readonly onAbort = () => {
    if (!this.busy) this.end(null);
  };

  /** Marks a step in progress until it settles; then the next one (messages that came meanwhile), or the end. */
  private step(work: Promise<void>): void {
    this.busy = true;
    work.then(this.stepDone, this.stepFailed);
  }

  private readonly stepDone = () => {
    this.busy = false;
    if (this.signal.aborted) return this.end(null);
    if (this.inbox.length > 0) return this.step(this.handleInbox());
    this.quiet?.refresh();
  };

  private readonly stepFailed = (err: unknown) => {
    this.busy = false;
    this.end(this.signal.aborted ? null : err);
  };

  private end(err: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (this.quiet) clearTimeout(this.quiet);
    this.signal.removeEventListener('abort', this.onAbort);
    const left = this.unsubscribe?.() ?? Promise.resolve();
    left.then(
      () => (err === null ? this.settle.resolve() : this.settle.reject(err)),
      (leaveErr: unknown) => this.settle.reject(err ?? leaveErr),
    );
  }

  private async checkHead(): Promise<void> {
    if ((await logHeads(this.s.db).head(this.visitorId)) > this.cursor) await this.catchUp();
  }

  /** Hands the inbox's messages over, in order, until it is empty or the stream ends. */
  private async handleInbox(): Promise<void> {
    for (let message = this.inbox.shift(); message && !this.signal.aborted; message = this.inbox.shift()) {
      if (message.kind === 'wake') {
        await this.catchUp(message.at);
        continue;
      }
      if (message.kind === 'erased') throw streamTicketInvalid('This visitor no longer exists.');
      const event = message.event;
      // a run new to this stream: read the log first (its run.started may be there, its wake lost or late)
      if (!this.relayed.has(event.runId) && !this.closed.has(event.runId)) await this.catchUp();
      if (!this.relayed.has(event.runId)) continue;
      if (event.type === 'reply.snapshot') {
        this.known.set(event.runId, event.text.length);
        this.observeLag('live', message.at);
        await this.emit({ id: null, event });
        continue;
      }
      const have = this.known.get(event.runId) ?? 0;
      const end = event.offset + event.text.length;
      if (end <= have) continue;
      if (event.offset > have) {
        await this.emit(await this.snapshot(event.conversationId, event.runId));
        continue;
      }
      this.observeLag('live', message.at);
      // Deltas of this run queued right behind it (the stream fell behind: a burst, a slow
      // client, a busy process) go out as one: the client's text is the same, and each
      // SSE event costs the process far more than its bytes (bench/fanout.ts: ~0.3 ms of CPU
      // per event through tRPC's stream pipeline), so a backlog shrinks instead of growing.
      let text = event.text.slice(have - event.offset);
      let merged = end;
      for (
        let next = this.inbox[0];
        next?.kind === 'live' && next.event.type === 'reply.delta' && next.event.runId === event.runId && next.event.offset === merged;
        next = this.inbox[0]
      ) {
        this.inbox.shift();
        text += next.event.text;
        merged += next.event.text.length;
        this.observeLag('live', next.at);
      }
      this.known.set(event.runId, merged);
      // not `await this.emit(…)`: a delta a client takes at once allocates no promise
      if (!this.write({ id: null, event: { ...event, offset: have, text } })) await this.sink.drained();
    }
  }

  /**
   * Reads the log past the cursor, a page at a time, and hands it over. Stops at the page the
   * stream ended in: a client that leaves during a long catch-up (lastEventId 0 on a visitor with
   * 100,000 events is 200 pages) costs the database no further read.
   */
  private async catchUp(publishedAt?: number): Promise<void> {
    let lagPending = publishedAt;
    while (!this.signal.aborted) {
      const rows = await this.s.db.event.findMany({
        where: { visitorId: this.visitorId, id: { gt: this.cursor } },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, payload: true },
      });
      for (const row of rows) {
        this.cursor = row.id;
        const event = row.payload as unknown as DurableEvent;
        if (event.type === 'reply.completed' || event.type === 'reply.failed') {
          this.known.delete(event.runId);
          this.closed.add(event.runId);
          this.relayed.delete(event.runId);
        }
        if (event.type === 'run.started') {
          const previous = this.newestRun.get(event.conversationId);
          if (previous && previous !== event.runId) {
            this.closed.add(previous);
            this.relayed.delete(previous);
          }
          this.newestRun.set(event.conversationId, event.runId);
          this.relayed.add(event.runId);
        }
        this.observeLag('durable', lagPending);
        lagPending = undefined;
        await this.emit({ id: row.id.toString(), event });
      }
      if (rows.length < PAGE) return;
    }
  }

  private async snapshot(conversationId: string, runId: string): Promise<StreamItem> {
    const text = await readReplyText(this.s.redis, this.s.keys, runId);
    this.known.set(runId, text.length);
    return { id: null, event: { type: 'reply.snapshot', conversationId, runId, text } };
  }

  /** Hands one item over; true when the client can take more now. A stream that ended hands nothing over. */
  private write(item: StreamItem): boolean {
    return this.signal.aborted || this.sink.write(item);
  }

  private async emit(item: StreamItem): Promise<void> {
    if (!this.write(item)) await this.sink.drained();
  }

  /**
   * Fan-out lag: from the publisher's `at` (a wake is published right after its commit; a
   * delta as it is relayed) to the moment this stream hands the item over to its sink
   * (socket buffering after that is not seen). Measured once per wake that delivered rows
   * (a wake whose rows an earlier read already delivered is not counted) and per live event
   * delivered. Events found by the first read or the quiet-stream re-read have no publish
   * time and are not measured. Across hosts it includes their clock skew; a negative lag
   * (skew) counts as 0.
   */
  private observeLag(kind: 'durable' | 'live', at: number | undefined): void {
    if (at !== undefined) this.s.metrics.fanoutLag.observe({ kind }, Math.max(0, Date.now() - at) / 1000);
  }
}

async function streamingRuns(s: Services, visitorId: string) {
  return s.db.run.findMany({
    where: { status: { in: ['claimed', 'streaming'] }, leaseUntil: { gt: new Date() }, conversation: { visitorId } },
    select: { id: true, conversationId: true },
  });
}
