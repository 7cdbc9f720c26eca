import type { PeopleCounts, PeopleFigures } from '../overview/people.ts';
import type { RatingComment } from '../overview/rating-comments-query.ts';
import { type CsvValue, csvRow } from './csv.ts';

/** The team's figures of one group as cells, in the order of {@link PEOPLE_COLUMNS}. */
export const peopleCells = (c: PeopleCounts): CsvValue[] => [
  c.firstResponses,
  c.firstResponseP50S,
  c.firstResponseP90S,
  c.resolutions,
  c.resolutionP50S,
  c.resolutionP90S,
  c.helpful,
  c.notHelpful,
];

/** The column names of {@link peopleCells}: times in whole seconds, empty when nothing was timed. */
export const PEOPLE_COLUMNS = [
  'first_responses',
  'first_response_p50_s',
  'first_response_p90_s',
  'resolutions',
  'resolution_p50_s',
  'resolution_p90_s',
  'ratings_helpful',
  'ratings_not_helpful',
] as const;

/** A rating as a cell: words a spreadsheet filters on, never a sign that could read as a formula. */
export const ratingText = (rating: number | null | undefined): string | null =>
  rating === 1 ? 'helpful' : rating === -1 ? 'not_helpful' : null;

/**
 * The people figures over the whole range, one row per group, as the overview's table has them
 * below its days: `team` (the whole range: its own percentiles, which no sum of the buckets
 * gives), then each `operator` (empty id and name: removed, or nobody answered nor was
 * assigned), then each `site`. The names are those of the operator's own sites' figures only:
 * someone who worked only on another site is not a row.
 * @example rangeTable(series.people) // 'group,id,name,first_responses,…\r\nteam,,,4,210,…\r\noperator,…,Ana,3,…'
 */
export function rangeTable(people: PeopleFigures): string {
  const rows = [
    csvRow(['team', null, null, ...peopleCells(people.total)]),
    ...people.operators.map((o) => csvRow(['operator', o.operator?.id, o.operator?.name, ...peopleCells(o)])),
    ...people.sites.map((s) => csvRow(['site', s.site.id, s.site.name, ...peopleCells(s)])),
  ];
  return csvRow(['group', 'id', 'name', ...PEOPLE_COLUMNS]) + rows.join('');
}

/**
 * The visitors' comments with their ratings, newest first: the overview's list, each the
 * visitor's own words (never a private conversation's: those are not listed at all).
 * @example commentsTable(series.people.comments) // 'rated_at_utc,site,operator,rating,comment,conversation_id\r\n…'
 */
export function commentsTable(comments: readonly RatingComment[]): string {
  const rows = comments.map((c) => csvRow([c.ratedAt, c.siteName, c.operatorName, ratingText(c.rating), c.comment, c.conversationId]));
  return csvRow(['rated_at_utc', 'site', 'operator', 'rating', 'comment', 'conversation_id']) + rows.join('');
}
