import type { Db } from '../../db/client.ts';
import type { SiteScope } from '../../operators/site-access.ts';
import { overviewPeople, type PeopleFigures } from './people.ts';
import { type BucketUnit, type OverviewRange, planBuckets } from './range.ts';
import { querySeries, type SeriesRow } from './series-query.ts';

/** One chart point: what happened in the bucket starting at `t`. */
export interface SeriesPoint {
  /** the bucket's start, ISO 8601 UTC */
  t: string;
  conversations: number;
  replies: number;
  failures: number;
  /** failed replies by error code (`model_timeout`, `spend_cap`, …); `{}` when none */
  failuresByKind: Record<string, number>;
  /** time to first token of the bucket's runs, in ms; null when no run recorded one */
  ttftP50Ms: number | null;
  ttftP95Ms: number | null;
  promptTokens: number;
  completionTokens: number;
  titleCostUsd: number;
  replyCostUsd: number;
}

/**
 * `console.overview.series`: the range's bucket width and its points, oldest first, zero-filled,
 * and the team's figures over the same buckets (first response and resolution times, ratings).
 */
export interface OverviewSeries {
  bucket: BucketUnit;
  points: SeriesPoint[];
  people: PeopleFigures;
}

/**
 * The overview's series for a range, across every site the operator may see (`scope`, null =
 * every site: required, so no caller can forget it) or one of them (`siteId`; outside the
 * scope it counts nothing, exactly like a site that does not exist). `allComments`: every
 * rating comment of the range rather than the newest 50 (the CSV download holds them all).
 * @example await overviewSeries(db, { range: '7d', scope: staff.sites }) // { bucket: 'day', points: [7 points] }
 */
export async function overviewSeries(
  db: Db,
  opts: { range: OverviewRange; siteId?: string | null; scope: SiteScope; now?: Date; allComments?: boolean },
): Promise<OverviewSeries> {
  const plan = planBuckets(opts.range, opts.now);
  const { scope } = opts;
  const sites = opts.siteId ? (scope === null || scope.includes(opts.siteId) ? [opts.siteId] : []) : scope;
  const [rows, people] = await Promise.all([
    querySeries(db, plan, sites),
    overviewPeople(db, plan, sites, { allComments: opts.allComments }),
  ]);
  return { bucket: plan.bucket, points: rows.map(toPoint), people };
}

/** Percentiles come back with float noise (1234.5000000001); whole milliseconds are what a chart shows. */
const ms = (x: number | null) => (x === null ? null : Math.round(x));
/** USD to a millionth of a cent keeps sums of tiny title costs visible without float noise. */
const usd = (x: number) => Math.round(x * 1e8) / 1e8;

function toPoint(row: SeriesRow): SeriesPoint {
  return {
    t: row.t.toISOString(),
    conversations: row.conversations,
    replies: row.replies,
    failures: row.failures,
    failuresByKind: row.failuresByKind ?? {},
    ttftP50Ms: ms(row.ttftP50Ms),
    ttftP95Ms: ms(row.ttftP95Ms),
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    titleCostUsd: usd(row.titleCostUsd),
    replyCostUsd: usd(row.replyCostUsd),
  };
}
