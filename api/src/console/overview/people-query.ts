import { type Db, Prisma } from '../../db/client.ts';
import { personTimesSql } from './person-times-sql.ts';
import type { BucketPlan } from './range.ts';

/** Which grouping a row of {@link queryPeople} is: one bucket, one operator, one site, or the whole range. */
export type PeopleLevel = 'bucket' | 'operator' | 'site' | 'range';

/** One group's figures as PostgreSQL aggregates them (seconds as floats, before rounding). */
export interface PeopleRow {
  level: PeopleLevel;
  /** the bucket's start (`bucket` rows only) */
  t: Date | null;
  /** the operator (`operator` rows; null there: removed, or nobody answered nor was assigned) */
  operatorId: string | null;
  operatorName: string | null;
  /** the site (`site` rows only) */
  siteId: string | null;
  siteName: string | null;
  firstResponses: number;
  firstResponseP50S: number | null;
  firstResponseP90S: number | null;
  resolutions: number;
  resolutionP50S: number | null;
  resolutionP90S: number | null;
  helpful: number;
  notHelpful: number;
}

/**
 * The team's figures of a plan in one statement, from `personTimesSql`'s conversations:
 *
 * - first response time: the first operator message − `waiting_from`, counted in the bucket of
 *   that message, for the operator who wrote it;
 * - resolution time: `resolvedAt` − `waiting_from` (the last resolution, should it have been
 *   reopened), in the bucket of `resolvedAt`, for the assignee (else the first responder);
 * - ratings: 👍 (1) and 👎 (-1) in the bucket of `ratedAt`, for the assignee (else the first responder).
 *
 * Each figure counts when it completes, as a reply does in the series. p50 and p90 are
 * `percentile_cont` (interpolated) over the group's times; percentiles cannot be added up, so
 * `GROUPING SETS` gives each bucket, each operator, each site and the whole range its own in one pass.
 */
export function queryPeople(db: Db, plan: BucketPlan, siteIds: readonly string[] | null): Promise<PeopleRow[]> {
  const step = Prisma.sql`make_interval(secs => ${plan.stepSeconds}::int)`;
  const start = Prisma.sql`${plan.start.toISOString()}::timestamptz`;
  const end = Prisma.sql`${plan.end.toISOString()}::timestamptz`;
  const ofSite = (alias: string) => (siteIds ? Prisma.sql`AND ${Prisma.raw(alias)}."siteId" = ANY(${[...siteIds]}::uuid[])` : Prisma.empty);
  const within = (column: string) => Prisma.sql`${Prisma.raw(column)} >= ${start} AND ${Prisma.raw(column)} < ${end}`;
  const p = (fraction: number, kind: string) =>
    Prisma.sql`percentile_cont(${fraction}::float8) WITHIN GROUP (ORDER BY secs) FILTER (WHERE kind = ${kind})`;
  return db.$queryRaw<PeopleRow[]>`
    WITH person AS MATERIALIZED (${personTimesSql(plan, ofSite)}),
    events AS (
      SELECT 'response' AS kind, date_bin(${step}, responded_at, ${start}) AS t, responder AS operator, "siteId" AS site,
             extract(epoch FROM responded_at - waiting_from)::float8 AS secs, NULL::int AS rating
      FROM person WHERE ${within('responded_at')} AND waiting_from <= responded_at
      UNION ALL
      SELECT 'resolution', date_bin(${step}, "resolvedAt", ${start}), coalesce("assigneeId", responder), "siteId",
             extract(epoch FROM "resolvedAt" - waiting_from)::float8, NULL
      FROM person WHERE ${within('"resolvedAt"')} AND waiting_from <= "resolvedAt"
      UNION ALL
      SELECT 'rating', date_bin(${step}, "ratedAt", ${start}), coalesce("assigneeId", responder), "siteId", NULL, rating
      FROM person WHERE ${within('"ratedAt"')} AND rating IN (1, -1)
    ),
    grouped AS (
      SELECT t, operator, site, GROUPING(t, operator, site) AS g,
             count(*) FILTER (WHERE kind = 'response')::int AS responses,
             ${p(0.5, 'response')} AS response_p50, ${p(0.9, 'response')} AS response_p90,
             count(*) FILTER (WHERE kind = 'resolution')::int AS resolutions,
             ${p(0.5, 'resolution')} AS resolution_p50, ${p(0.9, 'resolution')} AS resolution_p90,
             count(*) FILTER (WHERE rating = 1)::int AS helpful,
             count(*) FILTER (WHERE rating = -1)::int AS not_helpful
      FROM events
      GROUP BY GROUPING SETS ((t), (operator), (site), ())
    )
    -- GROUPING's bits are (t, operator, site), 1 where the column is grouped away
    SELECT CASE g WHEN 3 THEN 'bucket' WHEN 5 THEN 'operator' WHEN 6 THEN 'site' ELSE 'range' END AS level,
           CASE WHEN g = 3 THEN t END AS t, CASE WHEN g = 5 THEN operator END AS "operatorId", op.name AS "operatorName",
           CASE WHEN g = 6 THEN site END AS "siteId", s.name AS "siteName",
           responses AS "firstResponses", response_p50 AS "firstResponseP50S", response_p90 AS "firstResponseP90S",
           resolutions, resolution_p50 AS "resolutionP50S", resolution_p90 AS "resolutionP90S",
           helpful, not_helpful AS "notHelpful"
    FROM grouped
    LEFT JOIN "Operator" op ON g = 5 AND op.id = grouped.operator
    LEFT JOIN "Site" s ON g = 6 AND s.id = grouped.site
    ORDER BY g, t, responses DESC, op.name, s.name`;
}
