import type { Db } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import type { EventBus } from '../events/event-bus.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { addSiteUsage } from '../limits/site-usage.ts';
import type { ClaimedTitle } from './title-claims.ts';

export type TitleOutcome = 'changed' | 'kept' | 'failed' | 'rejected' | 'skipped';

/** The content-free facts of one title check; never any text. */
export interface TitleCheckFacts {
  model: string;
  promptTokens: number | null;
  completionTokens: number | null;
  costUsd: number | null;
  latencyMs: number | null;
  errorCode: string | null;
}

interface WriteDeps {
  db: Db;
  bus: EventBus;
}

/**
 * Stores the pass's title (source `generated`) with compare-and-set: only while the row is
 * still ours (`generating`) and still replaceable. A rename in the meantime made it `manual`,
 * so nothing matches, nothing is written, and the check is audited `skipped` (so does a
 * conversation turned private meanwhile). Success resets
 * the attempts. A visible change (text or source) is a `conversation.updated` event in the
 * same transaction, so the widget updates live. `updatedAt` is not in the SET list: a title
 * is not activity.
 */
export async function storeTitle(
  deps: WriteDeps,
  claim: ClaimedTitle,
  decision: { outcome: 'changed' | 'kept'; title: string },
  facts: TitleCheckFacts,
): Promise<TitleOutcome> {
  return transactWithEvents(deps.db, deps.bus, async (tx, emit) => {
    const n = await tx.$executeRaw`
      UPDATE "Conversation"
      SET title = ${decision.title}, "titleSource" = 'generated', "titleState" = 'generated', "titleLeaseUntil" = NULL, "titleAttempts" = 0
      WHERE id = ${claim.id}::uuid AND "titleState" = 'generating' AND "titleSource" IN ('first_message', 'generated') AND NOT private`;
    const outcome = n === 1 ? decision.outcome : 'skipped';
    await audit(tx, claim, outcome, facts);
    if (n === 1 && (decision.title !== claim.title || claim.source !== 'generated')) {
      emit(claim.visitorId, {
        type: 'conversation.updated',
        conversationId: claim.id,
        conversation: await loadConversationView(tx, claim.id),
      });
    }
    return outcome;
  });
}

/**
 * A failed check (model error, timeout, budget breach, rejected answer) leaves the title as
 * it was: the state goes back to what it was before the claim, the request is cleared (the
 * next reply asks again, after a backoff), and the attempt counts. At `maxAttempts` the
 * state is `failed` for good and the current title stays. Compare-and-set like storeTitle.
 */
export async function failTitle(
  deps: WriteDeps,
  claim: ClaimedTitle,
  failure: { outcome: 'failed' | 'rejected'; maxAttempts: number },
  facts: TitleCheckFacts,
): Promise<TitleOutcome> {
  return deps.db.$transaction(async (tx) => {
    const n = await tx.$executeRaw`
      UPDATE "Conversation"
      SET "titleState" = CASE
            WHEN "titleAttempts" + 1 >= ${failure.maxAttempts}::int THEN 'failed'::"TitleState"
            WHEN "titleSource" = 'generated' THEN 'generated'::"TitleState"
            ELSE 'pending'::"TitleState" END,
          "titleAttempts" = "titleAttempts" + 1,
          "titleRequestedAt" = NULL,
          "titleLeaseUntil" = NULL
      WHERE id = ${claim.id}::uuid AND "titleState" = 'generating' AND "titleSource" IN ('first_message', 'generated')`;
    const outcome = n === 1 ? failure.outcome : 'skipped';
    await audit(tx, claim, outcome, facts);
    return outcome;
  });
}

/**
 * Hands a claim back untouched, no attempt counted, audited `skipped` with the reason:
 * - `interrupted`: the process stops mid-call; the request is renewed, so the next pass
 *   (here or elsewhere) checks it again;
 * - `spend_cap`: the site reached its daily spend cap, so no call was made; the request is
 *   not renewed (the pass would claim it again every interval): the next reply asks again.
 */
export async function releaseTitle(
  deps: WriteDeps,
  claim: ClaimedTitle,
  facts: TitleCheckFacts,
  why: 'interrupted' | 'spend_cap' = 'interrupted',
): Promise<TitleOutcome> {
  const renew = why === 'interrupted';
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`
      UPDATE "Conversation"
      SET "titleState" = CASE WHEN "titleSource" = 'generated' THEN 'generated'::"TitleState" ELSE 'pending'::"TitleState" END,
          "titleLeaseUntil" = NULL,
          "titleRequestedAt" = CASE WHEN ${renew} THEN COALESCE("titleRequestedAt", now()) ELSE "titleRequestedAt" END
      WHERE id = ${claim.id}::uuid AND "titleState" = 'generating' AND "titleSource" IN ('first_message', 'generated')`;
    await audit(tx, claim, 'skipped', { ...facts, errorCode: why });
    return 'skipped' as const;
  });
}

/** The content-free audit row, and what the check cost added to the site's day (a call made counts as a request). */
async function audit(tx: Tx, claim: ClaimedTitle, outcome: TitleOutcome, facts: TitleCheckFacts): Promise<void> {
  await tx.titleCheck.create({
    data: { conversationId: claim.id, siteId: claim.siteId, outcome, ...facts, model: facts.model.slice(0, 100) },
    select: { id: true },
  });
  const called = facts.latencyMs !== null;
  if (called || facts.costUsd !== null) {
    await addSiteUsage(tx, claim.siteId, {
      modelRequests: called ? 1 : 0,
      promptTokens: facts.promptTokens,
      completionTokens: facts.completionTokens,
      costUsd: facts.costUsd,
    });
  }
}
