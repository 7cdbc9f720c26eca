import { type Db, Prisma } from '../../db/client.ts';
import type { BucketPlan } from './range.ts';

/** One bucket as PostgreSQL aggregates it (before the shape the console reads). */
export interface SeriesRow {
  t: Date;
  conversations: number;
  replies: number;
  failures: number;
  /** failed replies by their error code; null when there were none */
  failuresByKind: Record<string, number> | null;
  ttftP50Ms: number | null;
  ttftP95Ms: number | null;
  promptTokens: number;
  completionTokens: number;
  replyCostUsd: number;
  titleCostUsd: number;
}

/**
 * Every bucket of a plan in one statement: `generate_series` lays out the buckets (so empty ones
 * come back as zeros) and each source is aggregated once with `date_bin` on the plan's origin —
 * a few grouped scans, never a query per bucket.
 *
 * - conversations: `Conversation.createdAt`;
 * - replies and failures: assistant messages at `createdAt`, the moment the visitor got the
 *   reply (or the failure). A failed reply carries its code in `Message.error` (the same code
 *   as its run's `Run.error`): the failure's kind;
 * - time to first token, tokens and reply cost: the run that wrote each of those messages, in
 *   the same bucket as its reply. A run without `firstTokenAt` (failed before any token, or
 *   recorded before the field existed) is left out of the percentiles: `percentile_cont`
 *   ignores nulls. Runs that wrote nothing (taken over after a lost lease) count nowhere: the
 *   run that took over wrote the reply and counts;
 * - title cost: `TitleCheck.costUsd` at `createdAt`.
 *
 * Neither Message nor Run is indexed by time, but assistant messages have no outbox state, so
 * Message(state, createdAt) with `state IS NULL` is exactly a time index over them; and a
 * conversation's `updatedAt` never precedes its `createdAt`, so Conversation(updatedAt) narrows
 * the conversations. On the bench's data (100,000 conversations, 400,000 messages, 200,000 runs;
 * bench/console-list.ts), interleaved against the first version that scanned messages and runs
 * by time and joined every conversation, medians of 8 at a load average of ~11 on 2 cores:
 * 24 h 164 → 62 ms, 7 d 245 → 102 ms, 30 d 490 → 344 ms. Most of what is left is the Run table
 * hashed whole (an index on a run's time would remove that).
 */
export function querySeries(db: Db, plan: BucketPlan, siteIds: readonly string[] | null): Promise<SeriesRow[]> {
  const step = Prisma.sql`make_interval(secs => ${plan.stepSeconds}::int)`;
  const start = Prisma.sql`${plan.start.toISOString()}::timestamptz`;
  const end = Prisma.sql`${plan.end.toISOString()}::timestamptz`;
  const ofSite = (alias: string) => (siteIds ? Prisma.sql`AND ${Prisma.raw(alias)}."siteId" = ANY(${[...siteIds]}::uuid[])` : Prisma.empty);
  return db.$queryRaw<SeriesRow[]>`
    WITH buckets AS (
      SELECT generate_series(0, ${plan.count - 1}::int) * ${step} + ${start} AS t
    ),
    conversations AS (
      SELECT date_bin(${step}, c."createdAt", ${start}) AS t, count(*)::int AS n
      FROM "Conversation" c
      WHERE c."updatedAt" >= ${start} AND c."createdAt" >= ${start} AND c."createdAt" < ${end} ${ofSite('c')}
      GROUP BY 1
    ),
    assistant AS MATERIALIZED (
      SELECT date_bin(${step}, m."createdAt", ${start}) AS t, m.error,
             extract(epoch FROM r."firstTokenAt" - r."startedAt") * 1000 AS ttft_ms,
             r."promptTokens", r."completionTokens", r."costUsd"
      FROM "Message" m
      ${siteIds ? Prisma.sql`JOIN "Conversation" c ON c.id = m."conversationId" ${ofSite('c')}` : Prisma.empty}
      -- the planner hashes Run whole here (5,800 pages for 200,000 runs); forcing a primary-key
      -- lookup per reply instead read as many pages for 24 h and 17 times more for 30 d (measured)
      LEFT JOIN "Run" r ON r.id = m."runId"
      WHERE m.state IS NULL AND m.role = 'assistant' AND m."createdAt" >= ${start} AND m."createdAt" < ${end}
    ),
    replies AS (
      SELECT t,
             count(*) FILTER (WHERE error IS NULL)::int AS replies,
             count(*) FILTER (WHERE error IS NOT NULL)::int AS failures,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY ttft_ms) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY ttft_ms) AS p95,
             coalesce(sum("promptTokens"), 0)::float8 AS prompt_tokens,
             coalesce(sum("completionTokens"), 0)::float8 AS completion_tokens,
             coalesce(sum("costUsd"), 0)::float8 AS cost
      FROM assistant
      GROUP BY t
    ),
    failure_kinds AS (
      SELECT t, jsonb_object_agg(error, n) AS by_kind
      FROM (SELECT t, error, count(*)::int AS n FROM assistant WHERE error IS NOT NULL GROUP BY 1, 2) k
      GROUP BY t
    ),
    titles AS (
      SELECT date_bin(${step}, tc."createdAt", ${start}) AS t, coalesce(sum(tc."costUsd"), 0)::float8 AS cost
      FROM "TitleCheck" tc
      WHERE tc."createdAt" >= ${start} AND tc."createdAt" < ${end} ${ofSite('tc')}
      GROUP BY 1
    )
    SELECT b.t,
           coalesce(c.n, 0) AS conversations,
           coalesce(m.replies, 0) AS replies,
           coalesce(m.failures, 0) AS failures,
           k.by_kind AS "failuresByKind",
           m.p50::float8 AS "ttftP50Ms",
           m.p95::float8 AS "ttftP95Ms",
           coalesce(m.prompt_tokens, 0) AS "promptTokens",
           coalesce(m.completion_tokens, 0) AS "completionTokens",
           coalesce(m.cost, 0) AS "replyCostUsd",
           coalesce(ti.cost, 0) AS "titleCostUsd"
    FROM buckets b
    LEFT JOIN conversations c ON c.t = b.t
    LEFT JOIN replies m ON m.t = b.t
    LEFT JOIN failure_kinds k ON k.t = b.t
    LEFT JOIN titles ti ON ti.t = b.t
    ORDER BY b.t`;
}
