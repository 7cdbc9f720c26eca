import type { DbLike } from '../db/types.ts';
import type { BudgetReason } from './budget.ts';

/**
 * Why an intent was ignored before the budget was asked: a name the rules cannot hold
 * (`bad_name`), data over the bounds (`bad_data`), no rule for the name (`unknown_intent`), a
 * rule switched off (`rule_disabled`), or a visitor at their conversation cap with none to
 * speak in (`conversation_limit`).
 */
export type IgnoreReason = 'bad_name' | 'bad_data' | 'unknown_intent' | 'rule_disabled' | 'conversation_limit';

/** Every reason an intent or a check-in did not become a message; the console counts them per day. */
export type RefusalReason = IgnoreReason | BudgetReason | ClaimReason;

/**
 * Why a queued request was refused when a run came to write it: the visitor wrote after it was
 * queued (`visitor_wrote`: the moment passed; their message was answered first).
 */
export type ClaimReason = 'visitor_wrote';

/**
 * Counts one refusal in the site's UTC day (`ProactiveRefusal`, one row per site, day and
 * reason): the console shows how often the budget and the rules said no, without storing
 * what the page sent.
 */
export async function countRefusal(db: DbLike, siteId: string, reason: RefusalReason): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "ProactiveRefusal" ("siteId", day, reason, count)
    VALUES (${siteId}::uuid, (now() AT TIME ZONE 'UTC')::date, ${reason}, 1)
    ON CONFLICT ("siteId", day, reason) DO UPDATE SET count = "ProactiveRefusal".count + 1`;
}
