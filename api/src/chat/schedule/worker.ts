import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { Redis } from '../../redis/client.ts';
import type { Limits } from '../../limits/limits.ts';
import type { Logger } from '../../logging/logger.ts';
import { scoped } from '../../logging/scoped.ts';
import { answerBatch, startRunReads, type AnswerOutcome, type RunReads } from '../run/answer-batch.ts';
import type { AnswerDeps } from '../run/answer-deps.ts';
import { claimBatch } from './claim-batch.ts';
import { dueBatches, type BatchTiming, type ConversationOwner } from './due-batches.ts';
import { ConversationLock } from './lock.ts';
import { isSendWake, sendWakeConversation } from './schedule-wake.ts';
import { CHECK_IN_EVERY_MS, scheduleCheckIns } from '../../proactive/check-ins.ts';

export interface WorkerOptions extends AnswerDeps {
  subscriber: Redis;
  settleMs: number;
  debounceMs: number;
  maxWaitMs: number;
  concurrency: number;
  pollMs: number;
  /** the per-visitor model-run limit is checked before each claim */
  limits: Limits;
  /** called after every run, for tests and metrics */
  onRun?: (conversationId: string, outcome: AnswerOutcome) => void;
}

/**
 * The reply worker: finds due batches, takes each conversation's lock, claims the batch
 * and answers it, up to `concurrency` conversations at once. It sleeps until the next
 * batch is due, something due at once wakes it over Redis, or the poll interval passes; a
 * send's wake-up (due a settle later) brings the next poll within `sendPollGapMs` of the
 * last one instead. One conversation's failure is logged and never stops the loop.
 *
 * A visitor over their model-run limit is not claimed: the messages stay pending (durable,
 * nothing lost) and this worker leaves the conversation out until the limit's window
 * allows another run, then answers everything that waited in one batch.
 */
export class ReplyWorker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly active = new Map<string, Promise<void>>();
  /** conversations waiting on their visitor's model-run limit, until when (ms since epoch) */
  private readonly deferred = new Map<string, number>();
  private running = false;
  /** when this worker next looks for due check-ins (ms since epoch) */
  private nextCheckInAt = 0;
  private wakeUp: (() => void) | null = null;
  /** a wake-up that arrived while polling; the next sleep returns at once */
  private woken = false;
  /** when the current poll started (ms since epoch) */
  private polledAt = 0;
  /** the next poll happens by then at the latest (sends' wake-ups set it); ms since epoch */
  private pollBy = Number.POSITIVE_INFINITY;
  /** the batch the last poll saw coming, launched at its time without another poll; `at` in ms since epoch */
  private next: { conversationId: string; owner: ConversationOwner; at: number } | null = null;
  /** moves the current sleep's end earlier, to the given time */
  private shortenSleep: ((at: number) => void) | null = null;
  private loop: Promise<void> | null = null;
  /** aborted by `stop({ release: true })`: runs in flight hand their batches over */
  private readonly shutdown = new AbortController();
  /** every line this worker and its runs write carries its `workerId` */
  private readonly log: Logger;
  /** what each run is given: the options, with the worker-scoped logger */
  private readonly deps: AnswerDeps;

  constructor(private readonly opts: WorkerOptions) {
    this.deps = scoped<AnswerDeps>(opts, { workerId: this.id });
    this.log = this.deps.logger;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.opts.subscriber.subscribe(this.opts.keys.scheduleChannel(), (message) =>
      isSendWake(message) ? this.wakeForSend(sendWakeConversation(message)) : this.wake(),
    );
    this.loop = this.run();
  }

  /**
   * Stops claiming new batches and waits for the runs in flight: to finish, or, with
   * `release` (a SIGTERM), to hand their batches back at once so another worker answers them
   * now instead of after the lease (the visitor sees the reply start over there).
   */
  async stop(opts: { release?: boolean } = {}): Promise<void> {
    this.running = false;
    this.wake();
    if (opts.release) this.shutdown.abort();
    await this.loop;
    await Promise.allSettled(this.active.values());
    await this.opts.subscriber.unsubscribe(this.opts.keys.scheduleChannel()).catch(() => undefined);
  }

  /** The typing-aware debounce's three waits (due-batches.ts `pendingDueAtSql`). */
  private timing(): BatchTiming {
    const { settleMs, debounceMs, maxWaitMs } = this.opts;
    return { settleMs, debounceMs, maxWaitMs };
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * A send committed: its batch is due a settle from now (later if the visitor types), so a poll
   * within the gap learns its due time in time, and the sends of that gap share the poll.
   */
  private wakeForSend(conversationId: string): void {
    // its batch's time moved: the next poll learns when (the claim would refuse it now anyway)
    if (this.next?.conversationId === conversationId) this.next = null;
    const at = this.polledAt + sendPollGapMs(this.opts.settleMs);
    if (at <= Date.now()) return this.wake();
    if (at >= this.pollBy) return;
    this.pollBy = at;
    this.shortenSleep?.(at);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let waitMs = this.opts.pollMs;
      this.woken = false;
      this.polledAt = Date.now();
      this.pollBy = Number.POSITIVE_INFINITY;
      try {
        await this.launchNext();
        const free = this.opts.concurrency - this.active.size;
        if (free > 0) {
          this.opts.metrics.workerPolls.inc();
          const { due, owners, next } = await dueBatches(this.opts.sql, {
            ...this.timing(),
            limit: free + this.active.size,
            exclude: this.waiting(),
          });
          for (const id of due.filter((c) => !this.active.has(c)).slice(0, free)) this.launch(id, owners.get(id)!);
          this.next = next && { conversationId: next.conversationId, owner: next.owner, at: Date.now() + next.inMs };
          if (next) waitMs = Math.min(waitMs, next.inMs);
          for (const until of this.deferred.values()) waitMs = Math.min(waitMs, until - Date.now());
        }
        waitMs = Math.min(waitMs, await this.checkIns());
      } catch (err) {
        this.log.error({ err }, 'worker poll failed');
      }
      if (this.running) await this.sleep(Math.min(waitMs, this.pollBy - Date.now()));
    }
  }

  /**
   * Launches the batch the last poll saw coming once its time has come, without polling again
   * first: the poll before a claim was ~2.4 ms of the debounce bench's 5 ms from due to claim.
   * The claim checks that the batch is still due (a send since may have moved it).
   * Resolves when that claim has settled, at most CLAIM_HEAD_START_MS later: the poll that finds
   * everything else waits for it, since its CPU on this event loop delayed the claim's own
   * round trips (the lock took 2.3 ms instead of 0.75, traced in its own process). A claim that
   * hangs never holds the loop longer than that.
   */
  private async launchNext(): Promise<void> {
    const next = this.next;
    this.next = null;
    if (!next || next.at > Date.now() || this.active.has(next.conversationId)) return;
    if (this.active.size >= this.opts.concurrency || this.deferred.has(next.conversationId)) return;
    const claimed = this.launch(next.conversationId, next.owner, { onlyIfDue: true });
    const ac = new AbortController();
    await Promise.race([claimed, delay(CLAIM_HEAD_START_MS, undefined, { signal: ac.signal }).catch(() => undefined)]);
    ac.abort();
  }

  /** Starts answering the conversation; resolves once its claim has settled (or the job ended). */
  private launch(conversationId: string, owner: ConversationOwner, opts: { onlyIfDue?: boolean } = {}): Promise<void> {
    let claimed!: () => void;
    const settled = new Promise<void>((resolve) => (claimed = resolve));
    const job = this.answer(conversationId, owner, { ...opts, claimed })
      .catch((err) => this.log.error({ conversationId, err }, 'conversation failed'))
      .finally(() => {
        claimed();
        this.active.delete(conversationId);
        this.wake();
      });
    this.active.set(conversationId, job);
    return settled;
  }

  private async answer(
    conversationId: string,
    owner: ConversationOwner,
    opts: { onlyIfDue?: boolean; claimed: () => void },
  ): Promise<void> {
    // The lock first, then the run limit: a conversation another worker holds spends none of its
    // visitor's runs. Sent together (a trial), the two took 1.05 ms at p50 against 1.1 one after the
    // other (traced in process): their cost is CPU on this loop, not a round trip to overlap.
    const lock = await ConversationLock.acquire(this.opts.redis, this.opts.keys.lock(conversationId), this.opts.leaseMs);
    if (!lock) return;
    try {
      const verdict = await this.opts.limits.modelRun(owner);
      if (!verdict.ok) {
        this.deferred.set(conversationId, Date.now() + verdict.retryAfterMs);
        this.log.info(
          { conversationId, waitMs: verdict.retryAfterMs },
          `conversation waits ${Math.ceil(verdict.retryAfterMs / 1000)} s: its visitor reached the model-run limit`,
        );
        return;
      }
      let reads: Promise<RunReads> | undefined;
      const batch = await claimBatch(this.opts, {
        conversationId,
        workerId: this.id,
        leaseMs: this.opts.leaseMs,
        onlyIfDue: opts.onlyIfDue ? this.timing() : undefined,
        whileCommitting: (claimed) => void (reads = startRunReads(this.deps, claimed)),
      });
      opts.claimed();
      if (!batch) return void (await this.opts.limits.refundModelRun(owner));
      const { metrics } = this.opts;
      metrics.batches.inc();
      metrics.batchMessages.observe(batch.messageIds.length);
      const claimedAt = performance.now();
      const outcome = await answerBatch(this.deps, batch, lock, { shutdown: this.shutdown.signal, reads });
      metrics.runs.inc({ outcome });
      metrics.runDuration.observe({ outcome }, (performance.now() - claimedAt) / 1000);
      // one line per run, counts only: what the visitor wrote and the model said stay out of logs
      const durationMs = Math.round(performance.now() - claimedAt);
      this.log.info({ conversationId, runId: batch.runId, outcome, batchSize: batch.messageIds.length, durationMs }, 'run finished');
      this.opts.onRun?.(conversationId, outcome);
      if (outcome === 'released') {
        await lock.release().catch(() => undefined);
        // the batch is due now: wake the other workers rather than let them wait for a poll
        await this.opts.redis.publish(this.opts.keys.scheduleChannel(), conversationId).catch(() => undefined);
      }
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  /**
   * Every CHECK_IN_EVERY_MS, asks for the check-ins that silent conversations are due (durable
   * rows, so any worker may do it); answers the ms until the next look.
   */
  private async checkIns(): Promise<number> {
    if (Date.now() >= this.nextCheckInAt) {
      this.nextCheckInAt = Date.now() + CHECK_IN_EVERY_MS;
      const due = await scheduleCheckIns(this.opts.db);
      if (due.length > 0) await this.opts.redis.publish(this.opts.keys.scheduleChannel(), due[0]!).catch(() => undefined);
    }
    return this.nextCheckInAt - Date.now();
  }

  /** Conversations still waiting on a limit (the ones whose wait is over are forgotten). */
  private waiting(): string[] {
    const now = Date.now();
    for (const [id, until] of this.deferred) if (until <= now) this.deferred.delete(id);
    return [...this.deferred.keys()];
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      let endsAt = Date.now() + Math.max(0, ms);
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.shortenSleep = null;
        resolve();
      };
      timer = setTimeout(done, endsAt - Date.now());
      this.wakeUp = done;
      // only ever earlier: a batch due sooner keeps its own time
      this.shortenSleep = (at) => {
        if (at >= endsAt) return;
        endsAt = at;
        clearTimeout(timer);
        timer = setTimeout(done, Math.max(0, at - Date.now()));
      };
    });
  }
}

/** The longest the poll after a direct launch waits for that launch's claim (it takes ~8 ms). */
const CLAIM_HEAD_START_MS = 25;

/** How soon after a poll a send's wake-up brings the next: a quarter of the debounce, at most 100 ms. */
export const sendPollGapMs = (settleMs: number) => Math.min(100, Math.floor(settleMs / 4));
