import type { Keys, Redis } from '../redis/client.ts';
import { RELAY_TEXT } from '../redis/scripts.ts';
import { runScript } from '../redis/run-script.ts';
import type { BusMessage } from '../events/event-bus.ts';
import type { ClaimedBatch } from './claim-batch.ts';

/** How long the text of a streaming reply outlives its last delta in Redis. */
const TEXT_TTL_MS = 10 * 60 * 1000;

/**
 * Relays a reply's deltas to the visitor's subscribers and keeps the text so far in
 * Redis, in one script call per delta, so a client joining mid-reply reads a snapshot that is
 * exactly as long as the offsets of the deltas that follow it.
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

  private expired(): boolean {
    if (Date.now() < this.deadline) return false;
    this.onExpired();
    return true;
  }

  async delta(text: string): Promise<void> {
    if (this.expired()) return;
    if (!this.relayedAny) {
      this.relayedAny = true;
      this.onFirstDelta();
    }
    const offset = this.length;
    this.length += text.length;
    await this.send(
      { kind: 'live', at: Date.now(), event: { type: 'reply.delta', conversationId: this.batch.conversationId, runId: this.batch.runId, offset, text } },
      'append',
      text,
    );
  }

  /**
   * A retry after partial output: subscribers replace what they had with `kept`, the text of
   * the run's earlier model rounds (nothing in a run without tool calls).
   */
  async restart(kept = ''): Promise<void> {
    if (this.expired()) return;
    this.length = kept.length;
    await this.send(
      { kind: 'live', at: Date.now(), event: { type: 'reply.snapshot', conversationId: this.batch.conversationId, runId: this.batch.runId, text: kept } },
      'set',
      kept,
    );
  }

  /** The stored reply replaces the relayed text. */
  async clear(): Promise<void> {
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
