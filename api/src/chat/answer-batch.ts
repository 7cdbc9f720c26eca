import { runCost } from '../limits/run-cost.ts';
import { spendCapReached } from '../limits/site-usage.ts';
import { scoped } from '../logging/scoped.ts';
import type { AnswerDeps } from './answer-deps.ts';
import type { ClaimedBatch } from './claim-batch.ts';
import { FenceLostError } from './fence.ts';
import { completeRun, failRun, releaseRun, renewRunLease } from './finish-run.ts';
import { loadContext } from './load-context.ts';
import { handoffOffered } from '../handoff/handoff-offer.ts';
import type { ConversationLock } from './lock.ts';
import { ReplyFailedError } from './model-stream.ts';
import { ReplyRelay } from './reply-relay.ts';
import { replySettings } from './reply-settings.ts';
import { runToolLoop } from './tool-loop.ts';

/**
 * `awaiting_input`: the reply is a question (request_user_input); the visitor's answer
 * starts the next run. `released`: the worker is shutting down and handed the batch over.
 */
export type AnswerOutcome = 'completed' | 'awaiting_input' | 'failed' | 'lost' | 'released';

class LeaseLostError extends Error {}

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
export async function answerBatch(worker: AnswerDeps, batch: ClaimedBatch, lock: ConversationLock, shutdown?: AbortSignal): Promise<AnswerOutcome> {
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
  held(Date.now());
  const heartbeat = setInterval(() => {
    const sentAt = Date.now();
    void (async () => {
      const ok = (await lock.extend()) && (await renewRunLease(deps.db, batch, deps.leaseMs, status));
      if (ok) held(sentAt);
      else abort.abort(new LeaseLostError('lease lost'));
    })().catch((err) => deps.logger.warn({ err }, 'lease renewal failed'));
  }, Math.max(50, Math.floor(deps.leaseMs / 3)));

  try {
    const fixed = batch.proactive?.text;
    if (fixed) {
      // a fixed message (an intent rule's, said as is): no model call, stored like any reply
      await completeRun(deps.db, deps.bus, batch, { text: fixed, attempts: 0, promptTokens: null, completionTokens: null });
      return 'completed';
    }
    // independent reads run together: each round trip here delays the model request (the debounce bench)
    const [capReached, site] = await Promise.all([spendCapReached(deps.db, batch.siteId, deps.spendCapUsd), deps.sites.byId(batch.siteId)]);
    if (capReached) {
      deps.logger.warn({ siteId: batch.siteId }, 'site reached its daily spend cap; the model is not called');
      await failRun(deps.db, deps.bus, batch, { code: 'spend_cap', attempts: 0 });
      return 'failed';
    }
    const settings = replySettings(deps, site);
    const [messages, handoff] = await Promise.all([
      loadContext(deps.db, batch, deps.tokenBudget, settings.systemPrompt),
      // an unsolicited message (an intent, a check-in) never asks for a person on its own
      batch.proactive === null && handoffOffered(deps.db, batch.conversationId),
    ]);
    status = 'streaming';
    const sentAt = Date.now();
    if (!(await renewRunLease(deps.db, batch, deps.leaseMs, status, settings.model))) return 'lost';
    held(sentAt);
    const reply = await runToolLoop({ ...deps, model: settings.model, maxTokens: settings.maxTokens }, batch, messages, { signal: abort.signal, relay, handoff });
    if (abort.signal.aborted) return handOver(deps, batch, abort.signal);
    await completeRun(deps.db, deps.bus, batch, { ...reply, cost: runCost(settings.price, reply, messages), firstTokenAt });
    return reply.question ? 'awaiting_input' : 'completed';
  } catch (err) {
    if (abort.signal.aborted) return handOver(deps, batch, abort.signal);
    if (err instanceof FenceLostError) {
      deps.logger.warn('run lost its lease; a newer run answers the batch');
      return 'lost';
    }
    const code = err instanceof ReplyFailedError ? err.classified.code : 'model_error';
    deps.logger.error({ code, err: err instanceof ReplyFailedError ? err.cause : err }, `run failed: ${code}`);
    try {
      await failRun(deps.db, deps.bus, batch, { code, attempts: err instanceof ReplyFailedError ? err.attempts : 1, firstTokenAt });
      return 'failed';
    } catch (writeErr) {
      if (writeErr instanceof FenceLostError) return 'lost';
      throw writeErr;
    }
  } finally {
    shutdown?.removeEventListener('abort', release);
    clearInterval(heartbeat);
    await relay.clear().catch(() => undefined);
  }
}

/** A relay that shows nothing live: an unsolicited message appears only once it is stored. */
class QuietRelay extends ReplyRelay {
  override async delta(): Promise<void> {}
  override async restart(): Promise<void> {}
}

/** An aborted run: released by a shutdown (the batch goes to another worker now), or its lease was lost. */
async function handOver(deps: AnswerDeps, batch: ClaimedBatch, signal: AbortSignal): Promise<AnswerOutcome> {
  if (!(signal.reason instanceof ReleaseRun) || !(await releaseRun(deps.db, batch))) {
    deps.logger.warn('run lost its lease; a newer run answers the batch');
    return 'lost';
  }
  deps.logger.info('run released by a shutting-down worker; another worker takes the batch over now');
  return 'released';
}
