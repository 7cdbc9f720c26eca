import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';

/** What one run or title check adds to its site's day. */
export interface UsageDelta {
  modelRequests?: number;
  promptTokens?: number | null;
  completionTokens?: number | null;
  costUsd?: number | null;
  capRefusals?: number;
}

/**
 * Rows a site's day is spread over. Every finished run of a site adds to its day in the
 * transaction that stores the reply, while that transaction holds the conversation's row lock
 * (sends to the conversation wait on it). On one row, replies finishing together queued on
 * each other's commits: in the ingest bench (64 conversations of one site) the upsert waited
 * 9.6–13 ms on average, up to 200 ms, and so did the sends behind it. A random one of 8 rows
 * makes two finishing runs share a row one time in 8; readers sum the day's rows.
 */
export const USAGE_SHARDS = 8;

/**
 * Adds to one of the site's rows for today (UTC), creating it on its first call: one
 * `INSERT … ON CONFLICT DO UPDATE` with increments, so concurrent runs of a site never lose
 * each other's counts. Call it in the transaction that finishes the run (or audits the title
 * check), last, so the row stays locked only for the rest of that commit.
 */
export async function addSiteUsage(db: DbLike, siteId: string, delta: UsageDelta): Promise<void> {
  await db.$executeRaw(addSiteUsageSql(siteId, delta));
}

/** {@link addSiteUsage}'s statement, for a statement that adds it to its own work (chat/run/store-reply.ts). */
export function addSiteUsageSql(siteId: string, delta: UsageDelta): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "SiteUsage" ("siteId", day, shard, "modelRequests", "promptTokens", "completionTokens", "costUsd", "capRefusals")
    VALUES (${siteId}::uuid, (now() AT TIME ZONE 'UTC')::date, floor(random() * ${USAGE_SHARDS}::int)::smallint, ${delta.modelRequests ?? 0}::int,
            ${delta.promptTokens ?? 0}::bigint, ${delta.completionTokens ?? 0}::bigint, ${delta.costUsd ?? 0}::numeric, ${delta.capRefusals ?? 0}::int)
    ON CONFLICT ("siteId", day, shard) DO UPDATE SET
      "modelRequests" = "SiteUsage"."modelRequests" + EXCLUDED."modelRequests",
      "promptTokens" = "SiteUsage"."promptTokens" + EXCLUDED."promptTokens",
      "completionTokens" = "SiteUsage"."completionTokens" + EXCLUDED."completionTokens",
      "costUsd" = "SiteUsage"."costUsd" + EXCLUDED."costUsd",
      "capRefusals" = "SiteUsage"."capRefusals" + EXCLUDED."capRefusals"`;
}

/**
 * Whether the site's model spend today (UTC) has reached its cap: the site's own
 * `dailySpendCapUsd`, else `defaultCapUsd`. Read fresh from the database (the day's rows, on
 * their primary key) before every reply and title call. Runs already talking to the model when
 * the cap is reached still finish, so a day can end above the cap by at most the cost of the
 * runs in flight. A cap of 0 turns the model off for the site.
 */
export async function spendCapReached(db: DbLike, siteId: string, defaultCapUsd: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ reached: boolean }[]>`SELECT (${spendCapReachedSql(siteId, defaultCapUsd)}) AS reached`;
  return row?.reached ?? false;
}

/**
 * {@link spendCapReached} as a boolean scalar subquery (false for an unknown site), so a run's
 * first statement can carry it (chat/context/context-query.ts). The one owner of the rule.
 */
export function spendCapReachedSql(siteId: string, defaultCapUsd: number): Prisma.Sql {
  return Prisma.sql`coalesce((
    SELECT coalesce((SELECT sum(u."costUsd") FROM "SiteUsage" u WHERE u."siteId" = s.id AND u.day = (now() AT TIME ZONE 'UTC')::date), 0)
      >= coalesce(s."dailySpendCapUsd", ${defaultCapUsd}::numeric)
    FROM "Site" s
    WHERE s.id = ${siteId}::uuid), false)`;
}
