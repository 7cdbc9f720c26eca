import { EventSource } from 'eventsource';
import { z } from 'zod';
import type { Random } from '../random.ts';
import { call } from './wire.ts';

/** One thing a stream delivered, in the order it arrived. */
export interface Received {
  /** the log id of a durable (tracked) event; null for reply deltas and snapshots */
  id: string | null;
  type: string;
  conversationId: string;
  runId: string | null;
  /** text of a `reply.delta` / `reply.snapshot` */
  text: string;
  at: number;
  /** which connection of this client delivered it (1, 2, …) */
  connection: number;
}

const eventShape = z.object({ type: z.string(), conversationId: z.string(), runId: z.string().optional(), text: z.string().optional() });

/**
 * A visitor's event stream that survives everything the controller does, as the widget's
 * (widget/src/state/trpc-wire.ts `openStream`): every connection gets a fresh stream ticket
 * and goes to a random API process, resumes after the last tracked id received, and a stream
 * that goes quiet past the server's announced inactivity bound is replaced. It also drops its
 * connection now and then on its own (a phone changing networks), so resumes happen even
 * between faults. Everything delivered is recorded for the checker.
 */
export class ChaosEventStream {
  readonly received: Received[] = [];
  connections = 0;
  private source: EventSource | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dropTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private lastEventId: string;

  constructor(
    private readonly apis: readonly string[],
    private readonly token: string,
    /** the cursor it starts after (`conversation.list`'s), so every later event must arrive */
    readonly startCursor: string,
    private readonly random: Random,
  ) {
    this.lastEventId = startCursor;
  }

  start(): void {
    void this.open();
  }

  /** Highest durable id delivered so far. */
  get cursor(): string {
    return this.lastEventId;
  }

  stop(): void {
    this.stopped = true;
    this.close();
  }

  private close(): void {
    clearTimeout(this.timer);
    clearTimeout(this.dropTimer);
    this.source?.close();
    this.source = null;
  }

  private again(delayMs = 200 + this.random.int(0, 300)): void {
    this.close();
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.open(), delayMs);
  }

  private async open(): Promise<void> {
    let ticket: string;
    try {
      ({ ticket } = await call('events.ticket', 'mutation', undefined, z.object({ ticket: z.string() }), {
        apis: this.apis,
        token: this.token,
        random: this.random,
        deadline: Date.now() + 30_000,
      }));
    } catch {
      return this.again(1000);
    }
    if (this.stopped) return;
    const connection = ++this.connections;
    const base = this.random.pick(this.apis);
    const input = encodeURIComponent(JSON.stringify({ lastEventId: this.lastEventId }));
    const params = encodeURIComponent(JSON.stringify({ ticket }));
    const es = (this.source = new EventSource(`${base}/trpc/events.subscribe?input=${input}&connectionParams=${params}`));
    let quietMs = 0;
    const alive = () => {
      clearTimeout(this.timer);
      if (quietMs) this.timer = setTimeout(() => this.again(), quietMs);
    };
    es.addEventListener('connected', (e) => {
      quietMs = Number(JSON.parse(e.data).reconnectAfterInactivityMs) || 0;
      alive();
      // drop the connection by itself after 5–30 s, like a client changing networks
      clearTimeout(this.dropTimer);
      this.dropTimer = setTimeout(() => this.again(), this.random.int(5000, 30_000));
    });
    es.addEventListener('ping', alive);
    es.addEventListener('message', (e) => {
      alive();
      const id = e.lastEventId || null;
      if (id) this.lastEventId = id;
      const event = eventShape.parse(JSON.parse(e.data));
      this.received.push({
        id,
        type: event.type,
        conversationId: event.conversationId,
        runId: event.runId ?? null,
        text: event.text ?? '',
        at: Date.now(),
        connection,
      });
    });
    es.addEventListener('serialized-error', () => this.again(500));
    es.addEventListener('return', () => this.again());
    es.onerror = () => this.again();
  }
}
