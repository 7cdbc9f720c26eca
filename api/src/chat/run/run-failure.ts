import type { AnswerDeps } from './answer-deps.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { FenceLostError } from '../schedule/fence.ts';
import { failRun } from './finish-run.ts';
import type { ReplyErrorCode } from '../model/model-errors.ts';
import { ReplyFailedError } from '../model/model-stream.ts';
import { INFRA_MAX_ATTEMPTS, infraAttempt, retryRunLater } from './retry-run.ts';
import { isInfrastructureError, type RunErrorKind } from './run-errors.ts';

/**
 * How a run that threw ended, beside the model's `failed`:
 * - `retrying`: the database or Redis was away; the batch is tried again after a backoff, the
 *   visitor reads nothing but a reply on its way;
 * - `failed_service`: that happened INFRA_MAX_ATTEMPTS times in a row: `service_unavailable`;
 * - `failed_internal`: a bug of ours (`internal_error`), logged with its stack, not retried;
 * - `abandoned`: not even the failure could be written (the database still away): the run is
 *   left to its lease, after which another worker (or this one) claims the batch again.
 */
export type RunFailureOutcome = 'retrying' | 'failed_service' | 'failed_internal' | 'abandoned';

/**
 * Ends a run that threw: a lost fence is `lost`; a model failure (`streamReply` already retried
 * it) becomes the failed reply with the model's code; an infrastructure error is retried as a new
 * run before it fails the visitor's messages, and is then called what it is, never `model_error`.
 * Never throws: one conversation's failure never stops the worker.
 */
export async function afterError(
  deps: AnswerDeps,
  batch: ClaimedBatch,
  err: unknown,
  firstTokenAt: Date | null,
): Promise<'failed' | 'lost' | RunFailureOutcome> {
  if (err instanceof FenceLostError) {
    deps.logger.warn('run lost its lease; a newer run answers the batch');
    return 'lost';
  }
  const kind = runErrorKind(err);
  try {
    if (kind === 'infrastructure') {
      const attempt = await infraAttempt(deps.db, batch);
      if (attempt < INFRA_MAX_ATTEMPTS) {
        const delayMs = await retryRunLater(deps.db, batch, attempt);
        if (delayMs === null) return 'lost';
        deps.logger.warn({ err, attempt, delayMs }, 'run hit an infrastructure error; its batch is tried again after a backoff');
        return 'retrying';
      }
    }
    const code: ReplyErrorCode =
      err instanceof ReplyFailedError ? err.classified.code : kind === 'infrastructure' ? 'service_unavailable' : 'internal_error';
    // the logger describes an error in one line; a bug of ours also needs where it happened
    const stack = kind === 'internal' && err instanceof Error ? err.stack : undefined;
    // the provider's own words (bounded) name the fix more often than its status does
    const provider = err instanceof ReplyFailedError ? err.provider : {};
    deps.logger.error(
      { code, err: err instanceof ReplyFailedError ? err.cause : err, provider, ...(stack ? { stack } : {}) },
      `run failed: ${code}`,
    );
    await failRun(deps.db, deps.bus, batch, { code, attempts: err instanceof ReplyFailedError ? err.attempts : 0, firstTokenAt });
    return kind === 'model' ? 'failed' : kind === 'infrastructure' ? 'failed_service' : 'failed_internal';
  } catch (writeErr) {
    if (writeErr instanceof FenceLostError) return 'lost';
    deps.logger.error(
      { err: writeErr, cause: err },
      'could not record how the run ended; its lease expires and the batch is claimed again',
    );
    return 'abandoned';
  }
}

/** Classifies an error a run threw (see {@link RunErrorKind}). */
export function runErrorKind(err: unknown): RunErrorKind {
  if (err instanceof ReplyFailedError) return 'model';
  return isInfrastructureError(err) ? 'infrastructure' : 'internal';
}
