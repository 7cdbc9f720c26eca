import type { Db } from '../../db/client.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { backoffMs } from '../model/model-stream.ts';

/**
 * Runs in a row a batch may spend on infrastructure errors (the database or Redis away) before
 * the visitor reads `service_unavailable`: with the backoff below, about 1.5 s of outage on
 * average (up to 3.5 s) is absorbed without the visitor seeing a failure.
 */
export const INFRA_MAX_ATTEMPTS = 3;

/** What a run released for another attempt leaves in `Run.error` (the next claim keeps it when it retires the run). */
export const INFRA_RETRY = 'infrastructure_retry';

/**
 * Which attempt this run is for its batch: 1 + the runs right before it (by fence, in this
 * conversation) that ended in {@link INFRA_RETRY}. Any other run in between (completed, failed,
 * released by a shutdown, expired after a crash) starts the count over: only consecutive
 * infrastructure failures of the same batch are bounded.
 */
export async function infraAttempt(db: Db, batch: ClaimedBatch): Promise<number> {
  const rows = await db.$queryRaw<{ error: string | null }[]>`
    SELECT error FROM "Run" WHERE "conversationId" = ${batch.conversationId}::uuid AND fence < ${batch.fence}
    ORDER BY fence DESC LIMIT ${INFRA_MAX_ATTEMPTS}`;
  const before = rows.findIndex((r) => r.error !== INFRA_RETRY);
  return 1 + (before === -1 ? rows.length : before);
}

/**
 * Hands the batch back for another attempt after a backoff (the model's retry curve: 0.5 s, 1 s,
 * 2 s with full jitter): the run's lease ends then, so no worker claims the conversation before,
 * and the visitor's messages stay claimed (the conversation reads live meanwhile). Fenced like
 * every write; returns false when the run no longer owns the conversation. Answers the delay.
 */
export async function retryRunLater(db: Db, batch: ClaimedBatch, attempt: number): Promise<number | null> {
  const delayMs = Math.round(backoffMs(attempt));
  const n = await db.$executeRaw`
    UPDATE "Run" r SET "leaseUntil" = now() + make_interval(secs => ${delayMs / 1000}), error = ${INFRA_RETRY}
    FROM "Conversation" c
    WHERE r.id = ${batch.runId}::uuid AND c.id = r."conversationId" AND c.fence = r.fence
      AND r.status IN ('claimed', 'streaming')`;
  return n === 1 ? delayMs : null;
}
