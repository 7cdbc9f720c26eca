import type { DbLike } from '../db/types.ts';

/** A title request this pass owns until `titleLeaseUntil`. */
export interface ClaimedTitle {
  id: string;
  siteId: string;
  visitorId: string;
  title: string | null;
  /** the source at claim time: decides the state a failure goes back to */
  source: 'first_message' | 'generated';
  attempts: number;
}

/**
 * Claims up to `limit` due title requests in one statement: they become `generating` with a
 * lease and their request is cleared (a reply during the generation sets a new one). A private
 * conversation is never claimed: its words never reach the title model. Rows
 * another pass is claiming are skipped, not waited for, and a row whose state changed under
 * the lock no longer matches, so two passes never claim the same conversation.
 */
export function claimTitleRequests(db: DbLike, opts: { limit: number; leaseMs: number }): Promise<ClaimedTitle[]> {
  return db.$queryRaw<ClaimedTitle[]>`
    UPDATE "Conversation" c
    SET "titleState" = 'generating',
        "titleLeaseUntil" = now() + make_interval(secs => ${opts.leaseMs / 1000}::float8),
        "titleRequestedAt" = NULL
    WHERE c.id IN (
      SELECT id FROM "Conversation"
      WHERE "titleRequestedAt" <= now()
        AND "titleSource" IN ('first_message', 'generated')
        AND "titleState" IN ('pending', 'generated')
        AND NOT private
      ORDER BY "titleRequestedAt"
      FOR UPDATE SKIP LOCKED
      LIMIT ${opts.limit}::int)
    RETURNING c.id, c."siteId", c."visitorId", c.title, c."titleSource"::text AS source, c."titleAttempts" AS attempts`;
}

/**
 * Gives back claims whose lease expired (a process died mid-generation): the state returns
 * to what it was and the request is renewed, so the crash loses nothing. Attempts are not
 * counted: the model never failed. Runs at start-up and at the start of every pass.
 */
export function recoverTitleLeases(db: DbLike): Promise<number> {
  return db.$executeRaw`
    UPDATE "Conversation"
    SET "titleState" = CASE WHEN "titleSource" = 'generated' THEN 'generated'::"TitleState" ELSE 'pending'::"TitleState" END,
        "titleLeaseUntil" = NULL,
        "titleRequestedAt" = CASE WHEN private THEN NULL ELSE COALESCE("titleRequestedAt", now()) END
    WHERE "titleState" = 'generating'
      AND ("titleLeaseUntil" IS NULL OR "titleLeaseUntil" < now())
      AND "titleSource" IN ('first_message', 'generated')`;
}
