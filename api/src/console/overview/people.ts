import type { Db } from '../../db/client.ts';
import { queryPeople, type PeopleRow } from './people-query.ts';
import type { BucketPlan } from './range.ts';
import { COMMENTS_LISTED, queryRatingComments, type RatingComment } from './rating-comments-query.ts';

/** The team's figures of one group: times in whole seconds (null when nothing was timed), rating counts. */
export interface PeopleCounts {
  /** conversations whose first response (the first operator message) fell here */
  firstResponses: number;
  /** from the moment the visitor started waiting for a person to that first response */
  firstResponseP50S: number | null;
  firstResponseP90S: number | null;
  /** conversations resolved here (timed from the same start) */
  resolutions: number;
  resolutionP50S: number | null;
  resolutionP90S: number | null;
  /** visitors' ratings given here: 👍 and 👎 */
  helpful: number;
  notHelpful: number;
  /** 👍 among the ratings, 0 to 1; null without ratings */
  helpfulShare: number | null;
}

/** The people part of `console.overview.series`. */
export interface PeopleFigures {
  /** per bucket, the same buckets as the series' points, oldest first, zero-filled */
  points: ({ t: string } & PeopleCounts)[];
  /** per operator who responded, resolved or was rated, most first responses first; `operator` null: removed, or none */
  operators: ({ operator: { id: string; name: string } | null } & PeopleCounts)[];
  /** per site, most first responses first (one row when the overview shows one site) */
  sites: ({ site: { id: string; name: string } } & PeopleCounts)[];
  /** the whole range (its percentiles are the range's, not a mix of the buckets') */
  total: PeopleCounts;
  /** visitors' comments, newest first, at most 50 unless asked for all (never a private conversation's) */
  comments: RatingComment[];
  /** how many comments the range holds, listed or not */
  commentCount: number;
}

/**
 * First response and resolution times (p50/p90) and the visitors' ratings for a plan's buckets,
 * per operator, per site and over the whole range, with the ratings' comments (the newest
 * {@link COMMENTS_LISTED}; `allComments`: every one, as the CSV download holds); `siteIds` null = every site.
 * How each time is measured: `personTimesSql` and `queryPeople`.
 * @example (await overviewPeople(db, planBuckets('7d'), null)).total.firstResponseP50S // 240
 */
export async function overviewPeople(
  db: Db,
  plan: BucketPlan,
  siteIds: readonly string[] | null,
  opts: { allComments?: boolean } = {},
): Promise<PeopleFigures> {
  const [rows, { comments, total }] = await Promise.all([
    queryPeople(db, plan, siteIds),
    queryRatingComments(db, plan, siteIds, opts.allComments ? null : COMMENTS_LISTED),
  ]);
  const byBucket = new Map(rows.filter((r) => r.level === 'bucket').map((r) => [r.t!.getTime(), r]));
  const range = rows.find((r) => r.level === 'range');
  return {
    points: Array.from({ length: plan.count }, (_, i) => {
      const t = plan.start.getTime() + i * plan.stepSeconds * 1000;
      return { t: new Date(t).toISOString(), ...countsOf(byBucket.get(t)) };
    }),
    operators: rows
      .filter((r) => r.level === 'operator')
      .map((r) => ({ operator: r.operatorId ? { id: r.operatorId, name: r.operatorName ?? '' } : null, ...countsOf(r) })),
    sites: rows.filter((r) => r.level === 'site').map((r) => ({ site: { id: r.siteId!, name: r.siteName ?? '' }, ...countsOf(r) })),
    total: countsOf(range),
    comments,
    commentCount: total,
  };
}

/** Percentiles come back as float seconds (239.99999); whole seconds are what people read. */
const seconds = (x: number | null) => (x === null ? null : Math.round(x));

function countsOf(row: PeopleRow | undefined): PeopleCounts {
  if (!row) return countsOf(EMPTY);
  const rated = row.helpful + row.notHelpful;
  return {
    firstResponses: row.firstResponses,
    firstResponseP50S: seconds(row.firstResponseP50S),
    firstResponseP90S: seconds(row.firstResponseP90S),
    resolutions: row.resolutions,
    resolutionP50S: seconds(row.resolutionP50S),
    resolutionP90S: seconds(row.resolutionP90S),
    helpful: row.helpful,
    notHelpful: row.notHelpful,
    helpfulShare: rated === 0 ? null : row.helpful / rated,
  };
}

const EMPTY: PeopleRow = {
  level: 'range',
  t: null,
  operatorId: null,
  operatorName: null,
  siteId: null,
  siteName: null,
  firstResponses: 0,
  firstResponseP50S: null,
  firstResponseP90S: null,
  resolutions: 0,
  resolutionP50S: null,
  resolutionP90S: null,
  helpful: 0,
  notHelpful: 0,
};
