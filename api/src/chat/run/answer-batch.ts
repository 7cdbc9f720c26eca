import { citedSources } from '../../shared/citations.ts';
import { runCost } from '../../limits/run-cost.ts';
import { scoped } from '../../logging/scoped.ts';
import type { AnswerDeps } from './answer-deps.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { completeRun, failRun, releaseRun, renewRunLease } from './finish-run.ts';
import { readRunContext, type ContextReads } from '../context/load-context.ts';
import { asksSomething, recordUnanswered } from '../../knowledge/unanswered.ts';
import { retrievedOf } from '../../shared/citations.ts';
import type { RunChecks } from '../context/context-query.ts';
import type { SitePolicy } from '../../sites/site-policy.ts';
import { buildContext } from '../context/build-context.ts';
import { afterError, type RunFailureOutcome } from './run-failure.ts';
import type { ConversationLock } from '../schedule/lock.ts';
import { ReplyRelay } from './reply-relay.ts';
import { replySettings } from '../model/reply-settings.ts';
import { runToolLoop } from '../model/tool-loop.ts';

/**
 * `failed`: the visitor reads a failed reply the model (or the site's spend cap) caused; the
 * other failures are in {@link RunFailureOutcome}.
 * `awaiting_input`: the reply is a question (request_user_input); the visitor's answer
 * starts the next run. `released`: the worker is shutting down and handed the batch over.
 */
export type AnswerOutcome = 'completed' | 'awaiting_input' | 'failed' | 'lost' | 'released' | RunFailureOutcome;

/** The lease (or the fence) was lost while the run streamed: a newer run answers the batch. */
export class LeaseLostError extends Error {}

/** The reason a shutting-down worker aborts its runs with (`ReplyWorker.stop({ release: true })`). */
export class ReleaseRun extends Error {}

/**
 * Answers one claimed batch: builds the context, talks with the model (streaming, with the
 * tool loop) while renewing the lease, then stores the reply, or the question it asked, or a
 * failed reply, with fenced writes. A site at its daily spend cap gets a polite failed reply
 * (`spend_cap`) without any model call. A run claimed for an unsolicited message stores a fixed
 * message as is (no model call), or has the model write it without relaying it live. Never
 * throws for a model or lease problem: the outcome says what happened.
 */
export async function answerBatch(
  worker: AnswerDeps,
  batch: ClaimedBatch,
  lock: ConversationLock,
  opts: AnswerOptions = {},
): Promise<AnswerOutcome> {
  const { shutdown } = opts;
  // every line of this run, here and in the tool loop, carries runId and conversationId (and the worker's workerId)
  const deps = scoped(worker, { runId: batch.runId, conversationId: batch.conversationId });
  const abort = new AbortController();
  const release = () => abort.abort(new ReleaseRun('released'));
  if (shutdown?.aborted) release();
  shutdown?.addEventListener('abort', release, { once: true });
  let status: 'claimed' | 'streaming' = 'claimed';
  const started = performance.now();
  /** stored with the run's outcome (a fenced write), so the console shows its time to first token */
  let firstTokenAt: Date | null = null;
  // An unsolicited message is not relayed while it is written: should it fail, the visitor saw nothing of it.
  const relay = new (batch.proactive ? QuietRelay : ReplyRelay)(
    deps.redis,
    deps.keys,
    batch,
    () => {
      firstTokenAt = new Date();
      deps.metrics.firstToken.observe((performance.now() - started) / 1000);
    },
    () => abort.abort(new LeaseLostError('lease may have ended')),
  );
  // A lease counts from when its renewal was sent, less a tenth for clock drift between this
  // process and the database: the relay must stop before another run can start, not after.
  const held = (sentAt: number) => relay.holdUntil(sentAt + deps.leaseMs * 0.9);
  // the claim's lease, from when its transaction was sent: not from now, which a worker frozen
  // inside the claim reaches after its lease ended and a newer run took the batch (chaos: stale-publish)
  held(batch.claimSentAt);
  const { runMaxMs } = deps;
  const heartbeat = setInterval(
    () => {
      if (performance.now() - started > runMaxMs) {
        // A run this old is stuck: a query that never returns (seen once after pg_terminate_backend:
        // a query sent on a pooled connection never reached PostgreSQL), or a stream that never ends.
        // Renewing would hold its batch forever; it stops, so the lease lapses and another run takes
        // the batch over. Whatever can be aborted is; a hung query keeps only this worker's slot.
        clearInterval(heartbeat);
        deps.logger.error(
          { runMaxMs },
          'run exceeded RUN_MAX_MS: it stops renewing its lease, and another run takes the batch over once it lapses',
        );
        abort.abort(new LeaseLostError('run exceeded RUN_MAX_MS'));
        return;
      }
      const sentAt = Date.now();
      void (async () => {
        const ok = (await lock.extend()) && (await renewRunLease(deps.sql, batch, deps.leaseMs, status));
        if (ok) held(sentAt);
        else abort.abort(new LeaseLostError('lease lost'));
      })().catch((err) => deps.logger.warn({ err }, 'lease renewal failed'));
    },
    Math.max(50, Math.floor(deps.leaseMs / 3)),
  );

  /** the renewal that marks the run streaming; the run's end is written after it (see below) */
  let markedStreaming: Promise<void> | undefined;
  try {
    const fixed = fixedMessageOf(batch);
    if (fixed) {
      // a fixed message (an intent rule's, said as is): no model call, stored like any reply
      await completeRun(deps, batch, { text: fixed, attempts: 0, promptTokens: null, completionTokens: null });
      return 'completed';
    }
    const { site, reads, checks } = await (opts.reads ?? readRun(deps, batch));
    // an unsolicited message (an intent, a check-in) never asks for a person on its own
    const handoff = batch.proactive === null && checks.handoffOffered;
    if (checks.capReached) {
      deps.logger.warn({ siteId: batch.siteId }, 'site reached its daily spend cap; the model is not called');
      await failRun(deps.db, deps.bus, batch, { code: 'spend_cap', attempts: 0 });
      return 'failed';
    }
    const settings = replySettings(deps, site);
    const messages = buildContext({ ...reads, systemPrompt: settings.systemPrompt, handoff });
    status = 'streaming';
    // The renewal that marks the run streaming (and records its model) goes out with the model
    // request instead of before it: it cost 4-5 ms of the bench's claim → model request. Safe: the
    // relay holds the lease taken at the claim, every write is fenced, and a renewal that finds the
    // fence lost aborts the request (the run is 'lost', as before, one wasted model call later).
    const sentAt = Date.now();
    markedStreaming = renewRunLease(deps.sql, batch, deps.leaseMs, status, settings.model, retrievedOf(reads.knowledge)).then(
      (ok) => void (ok ? held(sentAt) : abort.abort(new LeaseLostError('fence lost before streaming'))),
      (err: unknown) => abort.abort(err),
    );
    const reply = await runToolLoop({ ...deps, model: settings.model, maxTokens: settings.maxTokens }, batch, messages, {
      signal: abort.signal,
      relay,
      handoff,
    });
    // A model that answers (or fails) within the renewal's round trip would otherwise end the run
    // first, and the renewal, finding it ended, would record no model for the console.
    await markedStreaming;
    if (abort.signal.aborted) return await afterAbort(deps, batch, abort.signal);
    // what the reply cites of the site's pages it was shown: their addresses, never the model's
    const sources = citedSources(reply.text, reads.knowledge);
    await completeRun(deps, batch, { ...reply, sources, cost: runCost(settings.price, reply, messages), firstTokenAt });
    if (reads.knowledgeMissed) await countUnanswered(deps, batch, reads);
    return reply.question ? 'awaiting_input' : 'completed';
  } catch (err) {
    await markedStreaming;
    if (abort.signal.aborted) return await afterAbort(deps, batch, abort.signal);
    return await afterError(deps, batch, err, firstTokenAt);
  } finally {
    shutdown?.removeEventListener('abort', release);
    clearInterval(heartbeat);
    await relay.clear().catch(() => undefined);
  }
}

export interface AnswerOptions {
  /** aborted when the worker shuts down: the run hands its batch over (`ReleaseRun`) */
  shutdown?: AbortSignal;
  /** the run's reads, started while its claim committed ({@link startRunReads}); read here when absent */
  reads?: Promise<RunReads>;
}

/** What a run reads before its model request. */
export interface RunReads {
  site: SitePolicy | null;
  reads: ContextReads;
  checks: RunChecks;
}

/** The text of a fixed message the run stores as is (an intent rule's): no model call, nothing to read. */
const fixedMessageOf = (batch: ClaimedBatch): string | null => batch.proactive?.text || null;

/**
 * Starts a run's reads, or answers undefined for a run that reads nothing (a fixed message). The
 * worker starts them as soon as the claim statement names the batch, so they run beside the
 * claim's view, events and commit (~3.5 ms) instead of after them. They read nothing the claim
 * changes but the claimed rows' state, which the context takes from the claimed ids, not the
 * state. A claim that then fails drops them, and their failure with it.
 */
export function startRunReads(deps: AnswerDeps, batch: ClaimedBatch): Promise<RunReads> | undefined {
  if (fixedMessageOf(batch)) return undefined;
  const reads = readRun(deps, batch);
  reads.catch(() => undefined);
  return reads;
}

/**
 * A run's reads: the site's settings (cached) beside ONE statement holding the context's first
 * reads, the spend cap and the hand-off flag (then recall). Everything before the model request
 * is on the debounce bench's path: as four separate reads and a second wave this took
 * p50 9 ms (max 26) of the bench's claim → model request, 6 (max 13) as one. A capped site reads
 * a context it drops, which is rare.
 */
async function readRun(deps: AnswerDeps, batch: ClaimedBatch): Promise<RunReads> {
  const [site, { reads, checks }] = await Promise.all([
    deps.sites.byId(batch.siteId),
    readRunContext(deps.sql, batch, {
      tokenBudget: deps.tokenBudget,
      spendCapUsd: deps.spendCapUsd,
      hybrid: deps.hybrid,
      files: deps.files,
      onMissingFile: () => deps.logger.warn({ conversationId: batch.conversationId }, 'an attached image is missing from the file store'),
    }),
  ]);
  return { site, reads, checks };
}

/**
 * A batch the site's knowledge had nothing for, once answered, is an unanswered question for the
 * console when it asks something. Its failure is logged and changes nothing for the visitor.
 */
async function countUnanswered(deps: AnswerDeps, batch: ClaimedBatch, reads: ContextReads): Promise<void> {
  const texts = reads.claimed.map((r) => r.content);
  if (!asksSomething(texts)) return;
  await recordUnanswered(deps.sql, { siteId: batch.siteId, conversationId: batch.conversationId, runId: batch.runId, texts }).catch(
    (err: unknown) => deps.logger.warn({ err }, 'unanswered question not counted'),
  );
}

/** A relay that shows nothing live: an unsolicited message appears only once it is stored. */
class QuietRelay extends ReplyRelay {
  override push(): void {}
  override async restart(): Promise<void> {}
}

/**
 * An aborted run: released by a shutdown (the batch goes to another worker now), or its lease
 * was lost, or the renewal sent with the model request failed (then the renewal's error decides).
 */
async function afterAbort(deps: AnswerDeps, batch: ClaimedBatch, signal: AbortSignal): Promise<AnswerOutcome> {
  const reason: unknown = signal.reason;
  if (!(reason instanceof ReleaseRun) && !(reason instanceof LeaseLostError)) return afterError(deps, batch, reason, null);
  try {
    if (reason instanceof ReleaseRun && (await releaseRun(deps.db, batch))) {
      deps.logger.info('run released by a shutting-down worker; another worker takes the batch over now');
      return 'released';
    }
  } catch (err) {
    deps.logger.warn({ err }, 'could not release the run; its lease expires and another worker takes the batch over');
    return 'abandoned';
  }
  deps.logger.warn('run lost its lease; a newer run answers the batch');
  return 'lost';
}
