import { type Db, Prisma } from '../../db/client.ts';
import type { BucketPlan } from './range.ts';

/** Most comments the overview lists (the newest). */
export const COMMENTS_LISTED = 50;

/** A visitor's comment with their rating, as the overview lists it. */
export interface RatingComment {
  conversationId: string;
  siteName: string;
  rating: 1 | -1;
  comment: string;
  /** ISO 8601 UTC */
  ratedAt: string;
  /** whom the rating counts for: the assignee, else the first responder; null when neither (or removed) */
  operatorName: string | null;
}

/**
 * The comments visitors left with their ratings in the plan's range, newest first, at most
 * `limit` ({@link COMMENTS_LISTED} unless said; null: every one, for the CSV download, which
 * holds the whole range), and how many there are in all. A private conversation's comment is
 * the visitor's words, which the console never shows: its rating counts, its comment is not listed
 * (nor counted here).
 */
export async function queryRatingComments(
  db: Db,
  plan: BucketPlan,
  siteIds: readonly string[] | null,
  limit: number | null = COMMENTS_LISTED,
): Promise<{ comments: RatingComment[]; total: number }> {
  const ofSite = siteIds ? Prisma.sql`AND c."siteId" = ANY(${[...siteIds]}::uuid[])` : Prisma.empty;
  const rows = await db.$queryRaw<(Omit<RatingComment, 'ratedAt'> & { ratedAt: Date; total: number })[]>`
    SELECT c.id AS "conversationId", s.name AS "siteName", c.rating::int AS rating, c."ratingComment" AS comment,
           c."ratedAt", op.name AS "operatorName", count(*) OVER ()::int AS total
    FROM "Conversation" c
    JOIN "Site" s ON s.id = c."siteId"
    LEFT JOIN LATERAL (
      SELECT m."operatorId" FROM "Message" m WHERE m."conversationId" = c.id AND m.role = 'operator' ORDER BY m.seq LIMIT 1
    ) o ON c."assigneeId" IS NULL
    LEFT JOIN "Operator" op ON op.id = coalesce(c."assigneeId", o."operatorId")
    WHERE c."ratedAt" >= ${plan.start.toISOString()}::timestamptz AND c."ratedAt" < ${plan.end.toISOString()}::timestamptz
      AND c.rating IN (1, -1) AND c."ratingComment" IS NOT NULL AND NOT c.private ${ofSite}
    ORDER BY c."ratedAt" DESC, c.id
    ${limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
  return {
    comments: rows.map(({ total: _, ...r }) => ({ ...r, ratedAt: r.ratedAt.toISOString() })),
    total: rows[0]?.total ?? 0,
  };
}
