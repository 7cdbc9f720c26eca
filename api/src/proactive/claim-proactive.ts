import type { Db } from '../db/client.ts';
import type { Tx } from '../db/types.ts';

/** An unsolicited message a run writes (it claimed this request, and no visitor message). */
export interface ClaimedProactive {
  requestId: string;
  kind: 'intent' | 'check_in' | 'server';
  /** the provenance label's words (the intent's label; null for a check-in) */
  label: string | null;
  /** a fixed message: stored as is, without a model call */
  text: string | null;
}

/** A pending request the budget refused at claim time: recorded once the claim rolled back. */
export interface ProactiveRefusal {
  requestId: string;
  siteId: string;
  reason: string;
}

/**
 * Claims the conversation's oldest pending proactive request for `runId`, inside the claim's
 * transaction (under the conversation's row lock), after checking the budget again at this
 * moment; null when none is pending.
 * TODO(issue 12): implemented with the budget in this folder.
 */
export async function claimProactive(
  _tx: Tx,
  _opts: { conversationId: string; visitorId: string; siteId: string; runId: string },
): Promise<ClaimedProactive | { refused: ProactiveRefusal } | null> {
  return null;
}

/** Marks a refused request `refused` with its reason and counts the refusal for the console. */
export async function refuseProactive(_db: Db, _refusal: ProactiveRefusal): Promise<void> {}
