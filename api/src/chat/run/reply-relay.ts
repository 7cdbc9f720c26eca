import type { Keys, Redis } from '../../redis/client.ts';
import { RELAY_TEXT } from '../../redis/scripts.ts';
import { runScript } from '../../redis/run-script.ts';
import type { BusMessage } from '../../events/event-bus.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';

/** How long the text of a streaming reply outlives its last delta in Redis. */
const TEXT_TTL_MS = 10 * 60 * 1000;

/**
 * Relays a reply's deltas to the visitor's subscribers and keeps the text so far in
 * Redis, in one script call per delta, so a client joining mid-reply reads a snapshot that is
 * exactly as long as the offsets of the deltas that follow it.
 *
 * One call in flight at a time: text that comes while one is in flight goes out with the next,
 * as one delta. A token that comes alone goes out at once, so the first token and a model's
 * usual pace (tens of ms between tokens) cost nothing; a burst costs one call instead of one a
 * token. Measured with the ingest bench, whose model streams a reply of ~500 words with no pause:
 * the worker sent one script call a word (a core's worth of CPU while 64 replies streamed at
 * once), and the API relayed as many events.
 *
 * Relaying is fenced by time: nothing is relayed past the moment the run's lease may have
 * ended (`holdUntil`, moved by every successful renewal). A worker frozen past its lease
 * (SIGSTOP, a long GC pause, a suspended VM) wakes up with model chunks still buffered; its
 * batch already belongs to a newer run, so it must not show visitors a word of them. The
 * fence is checked here and again by Redis when the write happens (`RELAY_TEXT`), since the
 * worker can freeze between the two. The database fence guards the stored reply; this
 * guards the live text.
 */
export class ReplyRelay {
  private length = 0;
  private relayedAny = false;
  private deadline = Number.POSITIVE_INFINITY;
  /** text pushed and not yet sent */
  private pending = '';
  /** the loop sending `pending`, while it runs */
  private draining: Promise<void> | null = null;
  /** a send that failed (Redis away): thrown by the next push and by `settled` */
  private failure: unknown = null;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
    private readonly batch: ClaimedBatch,
    /** called once, at the run's first delta (time to first token) */
    private readonly onFirstDelta: () => void = () => {},
    /** called when a delta comes after the lease may have ended (the run should stop) */
    private readonly onExpired: () => void = () => {},
  ) {}

  /** The run's lease holds at least until `deadline` (ms since epoch, this process's clock). */
  holdUntil(deadline: number): void {
    this.deadline = deadline;
  }

  /**
   * Whether the lease still holds by this process's clock; when it may have ended, the run is
   * told (`onExpired`), as for a late delta. Asked before each model request: a worker frozen
   * past its lease (SIGSTOP, a suspended VM) wakes to a batch a newer run may be answering, and
   * a request then is paid for and thrown away (`npm run chaos` counted 2 in 1,982).
   */
  holds(): boolean {
    return !this.expired();
  }

  private expired(): boolean {
    if (Date.now() < this.deadline) return false;
    this.onExpired();
    return true;
  }

  /**
   * Queues `text` for the visitor without waiting for it: sent now if nothing is in flight, else
   * with whatever else comes meanwhile. Throws a failure of an earlier send.
   */
  push(text: string): void {
    if (this.failure !== null) throw this.failure;
    if (this.expired()) return;
    if (!this.relayedAny) {
      this.relayedAny = true;
      this.onFirstDelta();
    }
    this.pending += text;
    if (!this.draining) this.drain();
  }

  /** Resolves once everything pushed was sent (or dropped past the lease); rejects with a failed send. */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
    if (this.failure !== null) throw this.failure;
  }

  /** {@link push}, then {@link settled}: resolves once `text` and everything before it was sent. */
  async delta(text: string): Promise<void> {
    this.push(text);
    await this.settled();
  }

  /** Sends `pending` until none is left; a text pushed after the loop ended starts it again. */
  private drain(): void {
    this.draining = (async () => {
      try {
        while (this.pending !== '' && !this.expired()) {
          const text = this.pending;
          this.pending = '';
          const offset = this.length;
          this.length += text.length;
          await this.send(
            {
              kind: 'live',
              at: Date.now(),
              event: { type: 'reply.delta', conversationId: this.batch.conversationId, runId: this.batch.runId, offset, text },
            },
            'append',
            text,
          );
        }
      } catch (err) {
        this.failure = err;
      }
      this.pending = '';
    })().finally(() => {
      this.draining = null;
      if (this.pending !== '' && this.failure === null) this.drain();
    });
  }

  /**
   * A retry after partial output: subscribers replace what they had with `kept`, the text of
   * the run's earlier model rounds (nothing in a run without tool calls). What the failed
   * attempt pushed and was not sent yet is dropped.
   */
  async restart(kept = ''): Promise<void> {
    this.pending = '';
    await this.settled();
    if (this.expired()) return;
    this.length = kept.length;
    await this.send(
      {
        kind: 'live',
        at: Date.now(),
        event: { type: 'reply.snapshot', conversationId: this.batch.conversationId, runId: this.batch.runId, text: kept },
      },
      'set',
      kept,
    );
  }

  /** The stored reply replaces the relayed text (after the last send, which would write it again). */
  async clear(): Promise<void> {
    await this.settled().catch(() => undefined);
    await this.redis.del(this.keys.replyText(this.batch.runId));
  }

  /** One EVAL: the text so far and the message together, refused by Redis past the time fence (`RELAY_TEXT`). */
  private async send(message: BusMessage, mode: 'append' | 'set', text: string) {
    const deadline = Number.isFinite(this.deadline) ? String(this.deadline) : '';
    const relayed = await runScript(this.redis, RELAY_TEXT, {
      keys: [this.keys.replyText(this.batch.runId)],
      arguments: [deadline, mode, text, String(TEXT_TTL_MS), this.keys.visitorChannel(this.batch.visitorId), JSON.stringify(message)],
    });
    if (relayed === 0) this.onExpired();
  }
}

/** The text so far of a streaming run ('' when none was relayed yet). */
export async function readReplyText(redis: Redis, keys: Keys, runId: string): Promise<string> {
  return (await redis.get(keys.replyText(runId))) ?? '';
}
