import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';

/** Backoff of a request after failed attempts: none at first, then 30 s doubling, capped at 1 h. */
export const TITLE_BACKOFF_BASE_S = 30;
export const TITLE_BACKOFF_CAP_S = 3600;

/**
 * Asks the title pass to (re)consider a conversation's title: called in the transaction
 * that stores an error-free reply, so the request is as durable as the reply and no model
 * call ever sits on the reply path.
 *
 * Coalescing: an open request keeps its time, so a burst of replies makes one request.
 * Only `first_message` and `generated` titles are eligible, and not once the pass gave up
 * (`failed`), and never for a private conversation (its words never reach the title model);
 * a request that lands while a pass is generating is kept for the next pass, which then sees
 * the newest messages. Only title columns are written: `updatedAt` (the
 * sidebar's activity order) is untouched, and raw SQL guarantees no ORM bumps it.
 * Returns whether the conversation has an open request now.
 */
export async function requestTitle(db: DbLike, conversationId: string): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Conversation" SET "titleRequestedAt" = ${titleRequestedAt}
    WHERE id = ${conversationId}::uuid AND ${titleRequestable}`;
  return n === 1;
}

/** Conversations {@link requestTitle} may ask about (a condition on the `Conversation` row). */
const titleRequestable = Prisma.sql`"titleSource" IN ('first_message', 'generated')
  AND "titleState" IN ('pending', 'generating', 'generated')
  AND NOT private`;

/** An open request keeps its time; a new one is due now, or after the backoff of failed attempts. */
const titleRequestedAt = Prisma.sql`COALESCE("titleRequestedAt", now() + CASE
  WHEN "titleAttempts" = 0 THEN interval '0'
  ELSE make_interval(secs => LEAST(${TITLE_BACKOFF_BASE_S}::float8 * power(2, "titleAttempts" - 1), ${TITLE_BACKOFF_CAP_S}::float8))
END)`;

/**
 * {@link requestTitle} as the value of `"titleRequestedAt"` in an UPDATE of the conversation that
 * writes other columns too (a stored reply's: chat/run/store-reply.ts): the same rule, no statement of its own.
 */
export const titleRequestedAtAfterReply = Prisma.sql`CASE WHEN ${titleRequestable} THEN ${titleRequestedAt} ELSE "titleRequestedAt" END`;

/**
 * An operator asks the title pass to look again now (the console's "retitle"): the request is
 * due at once, and a title the pass gave up on (`failed`) gets its attempts back. Only a
 * replaceable title (`first_message`, `generated`) can be retitled: a manual or fixed one
 * belongs to whoever set it. Only title columns are written (`updatedAt` untouched). Returns
 * whether the request was made.
 */
export async function requestRetitle(db: DbLike, conversationId: string): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Conversation"
    SET "titleRequestedAt" = now(),
        "titleAttempts" = 0,
        "titleState" = CASE WHEN "titleState" = 'failed'
          THEN (CASE WHEN "titleSource" = 'generated' THEN 'generated' ELSE 'pending' END)::"TitleState"
          ELSE "titleState" END
    WHERE id = ${conversationId}::uuid
      AND "titleSource" IN ('first_message', 'generated')
      AND NOT private`;
  return n === 1;
}

/**
 * A conversation just turned private: its pending title request is dropped and a claim being
 * generated right now is given back (its answer then finds the row no longer `generating`
 * and is only audited `skipped`), so no title made from its words is stored. Only title
 * columns are written. Call it in the transaction that sets `private`.
 */
export async function dropTitleRequest(db: DbLike, conversationId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE "Conversation"
    SET "titleRequestedAt" = NULL, "titleLeaseUntil" = NULL,
        "titleState" = CASE WHEN "titleState" = 'generating'
          THEN (CASE WHEN "titleSource" = 'generated' THEN 'generated' ELSE 'pending' END)::"TitleState"
          ELSE "titleState" END
    WHERE id = ${conversationId}::uuid`;
}
