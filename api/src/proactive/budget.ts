import type { DbLike } from '../db/types.ts';
import { UNSOLICITED } from '../shared/provenance.ts';

/** Why the budget refused an unsolicited message (stored in ProactiveRequest.reason and counted). */
export type BudgetReason = 'held' | 'live_run' | 'pending_batch' | 'daily_budget' | 'twice_in_a_row' | 'unread_unsolicited';

/** The window of the daily budget and of the unread rule: the last 24 hours, not the calendar day. */
export const BUDGET_WINDOW_MS = 24 * 3600_000;

/** What the budget decides on: facts about one visitor (and the target conversation) at one moment. */
export interface BudgetFacts {
  /** the target conversation is held by an operator or waits for a person */
  held: boolean;
  /** a run of another of the visitor's conversations (or another run of this one) holds a lease */
  liveRun: boolean;
  /**
   * a visitor message is pending or claimed in any of their conversations, or failed in the target
   * one (its retry is still owed, and the next claim there would answer it first)
   */
  pendingBatch: boolean;
  /** unsolicited messages (intent, check-in, server) the visitor got in the last 24 h */
  unsolicitedToday: number;
  /** unsolicited requests queued ahead of this one (pending, or claimed by a run writing one now) */
  queuedAhead: number;
  /** the visitor's newest message, any conversation */
  newestVisitorAt: Date | null;
  /** the visitor's newest unsolicited message, and whether they have read it (its conversation's lastReadAt) */
  newestUnsolicited: { at: Date; read: boolean } | null;
}

/**
 * The unsolicited-message budget, one visitor at a time, first refusal wins:
 * - `held`: never into a conversation an operator holds or that waits for a person;
 * - `pending_batch` / `live_run`: never while the visitor waits for a reply or one is being written;
 * - `daily_budget`: at most `perDay` unsolicited messages in the last 24 h;
 * - `twice_in_a_row`: never two without a visitor message between them (one already queued counts);
 * - `unread_unsolicited`: never while the last one (within 24 h) is unread.
 * Pure: the same facts always decide the same. Server-to-server messages never ask it (the
 * site's server decided) but count in its facts like every unsolicited message.
 * @example budgetRefusal(facts, { perDay: 2, now: new Date() }) // null or 'daily_budget', …
 */
export function budgetRefusal(f: BudgetFacts, rules: { perDay: number; now: Date }): BudgetReason | null {
  if (f.held) return 'held';
  if (f.pendingBatch) return 'pending_batch';
  if (f.liveRun) return 'live_run';
  if (f.unsolicitedToday + f.queuedAhead >= rules.perDay) return 'daily_budget';
  if (f.queuedAhead > 0) return 'twice_in_a_row';
  const last = f.newestUnsolicited;
  if (last && !(f.newestVisitorAt && f.newestVisitorAt > last.at)) return 'twice_in_a_row';
  if (last && !last.read && last.at.getTime() > rules.now.getTime() - BUDGET_WINDOW_MS) return 'unread_unsolicited';
  return null;
}

export interface BudgetSubject {
  visitorId: string;
  /** the conversation the message would go to (null: none yet, one would be created) */
  conversationId: string | null;
  /** the claiming run, which is not "another live run" */
  runId?: string;
  /** the request being claimed: only requests older than it are queued ahead of it */
  requestId?: string;
}

/**
 * Reads the budget's facts in one statement (inside the caller's transaction when there is
 * one: the claim reads them under the conversation's row lock, fire and the check-in
 * scheduler under the visitor's).
 */
export async function budgetFacts(db: DbLike, s: BudgetSubject): Promise<BudgetFacts> {
  const since = new Date(Date.now() - BUDGET_WINDOW_MS);
  const [row] = await db.$queryRaw<
    {
      held: boolean;
      live_run: boolean;
      pending_batch: boolean;
      unsolicited_today: number;
      queued_ahead: number;
      newest_visitor_at: Date | null;
      newest_unsolicited_at: Date | null;
      newest_unsolicited_read: boolean | null;
    }[]
  >`
    WITH last_unsolicited AS (
      SELECT m."createdAt", (c."lastReadAt" IS NOT NULL AND c."lastReadAt" >= m."createdAt") AS read
      FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
      WHERE m."visitorId" = ${s.visitorId}::uuid AND m.provenance = ANY(${[...UNSOLICITED]}::text[])
      ORDER BY m.seq DESC LIMIT 1
    ), this_request AS (
      SELECT "createdAt" FROM "ProactiveRequest" WHERE id = ${s.requestId ?? null}::uuid
    )
    SELECT
      EXISTS (SELECT 1 FROM "Conversation" c WHERE c.id = ${s.conversationId}::uuid
              AND (c."heldById" IS NOT NULL OR c."waitingSince" IS NOT NULL)) AS held,
      EXISTS (SELECT 1 FROM "Run" r JOIN "Conversation" c ON c.id = r."conversationId"
              WHERE c."visitorId" = ${s.visitorId}::uuid AND r.status IN ('claimed', 'streaming') AND r."leaseUntil" > now()
                AND r.id IS DISTINCT FROM ${s.runId ?? null}::uuid) AS live_run,
      EXISTS (SELECT 1 FROM "Message" m WHERE m."visitorId" = ${s.visitorId}::uuid AND m.role = 'user'
              AND (m.state IN ('pending', 'claimed') OR (m.state = 'failed' AND m."conversationId" = ${s.conversationId}::uuid))) AS pending_batch,
      (SELECT count(*)::int FROM "Message" m WHERE m."visitorId" = ${s.visitorId}::uuid
              AND m.provenance = ANY(${[...UNSOLICITED]}::text[]) AND m."createdAt" > ${since}) AS unsolicited_today,
      (SELECT count(*)::int FROM "ProactiveRequest" p WHERE p."visitorId" = ${s.visitorId}::uuid
              AND p.status IN ('pending', 'claimed') AND p."createdAt" > ${since}
              AND p.id IS DISTINCT FROM ${s.requestId ?? null}::uuid
              AND (NOT EXISTS (SELECT 1 FROM this_request) OR p."createdAt" < (SELECT "createdAt" FROM this_request))) AS queued_ahead,
      (SELECT max(m."createdAt") FROM "Message" m WHERE m."visitorId" = ${s.visitorId}::uuid AND m.role = 'user') AS newest_visitor_at,
      (SELECT "createdAt" FROM last_unsolicited) AS newest_unsolicited_at,
      (SELECT read FROM last_unsolicited) AS newest_unsolicited_read`;
  const r = row!;
  return {
    held: r.held,
    liveRun: r.live_run,
    pendingBatch: r.pending_batch,
    unsolicitedToday: r.unsolicited_today,
    queuedAhead: r.queued_ahead,
    newestVisitorAt: r.newest_visitor_at,
    newestUnsolicited: r.newest_unsolicited_at ? { at: r.newest_unsolicited_at, read: r.newest_unsolicited_read === true } : null,
  };
}

/**
 * The budget's verdict for one unsolicited message now: null when it may be sent, else why not.
 * Used when an intent fires, when the scheduler creates a check-in, and again when a run claims
 * the request (time passed: the visitor may have written, read, or got another message since).
 */
export async function checkBudget(db: DbLike, s: BudgetSubject & { perDay: number }): Promise<BudgetReason | null> {
  return budgetRefusal(await budgetFacts(db, s), { perDay: s.perDay, now: new Date() });
}
