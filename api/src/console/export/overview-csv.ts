import type { OverviewSeries } from '../overview/series.ts';
import { csvRow } from './csv.ts';
import { commentsTable, PEOPLE_COLUMNS, peopleCells, rangeTable } from './people-csv.ts';

/**
 * The line between two tables of the file: one empty record, which a spreadsheet shows as an
 * empty row. Three tables, each under its own header row, read at a glance where one wide table
 * would leave most cells of every row empty (a bucket has no operator, a comment no p90); and
 * the first table is the file's first lines as before, so what read it still does.
 */
const TABLE_BREAK = '\r\n';

/**
 * The overview as CSV, three tables one under the other, each with its own header row:
 *
 * 1. per bucket (day, or hour for 24 h), oldest first: the figures the charts draw, failures by
 *    kind as one `failures_<code>` column per code seen in the range (sorted, so a spreadsheet
 *    charts each kind without parsing JSON), then the team's first responses and resolutions
 *    with their p50/p90 in seconds, and the ratings;
 * 2. the same people figures over the whole range, for the team, per operator and per site
 *    (`rangeTable`);
 * 3. the visitors' comments with their ratings (`commentsTable`).
 *
 * Every figure and name is of the sites the series was read for, which the caller scopes.
 * @example overviewCsv(await overviewSeries(db, { range: '7d', scope, allComments: true })) // 'bucket_start_utc,conversations,…\r\n2026-11-25T00:00:00.000Z,3,…'
 */
export function overviewCsv(series: OverviewSeries): string {
  return [bucketTable(series), rangeTable(series.people), commentsTable(series.people.comments)].join(TABLE_BREAK);
}

function bucketTable(series: OverviewSeries): string {
  const kinds = [...new Set(series.points.flatMap((p) => Object.keys(p.failuresByKind)))].sort();
  const header = [
    'bucket_start_utc',
    'conversations',
    'replies',
    'failures',
    ...kinds.map((k) => `failures_${k}`),
    'ttft_p50_ms',
    'ttft_p95_ms',
    'prompt_tokens',
    'completion_tokens',
    'reply_cost_usd',
    'title_cost_usd',
    ...PEOPLE_COLUMNS,
  ];
  const rows = series.points.map((p, i) =>
    csvRow([
      p.t,
      p.conversations,
      p.replies,
      p.failures,
      ...kinds.map((k) => p.failuresByKind[k] ?? 0),
      p.ttftP50Ms,
      p.ttftP95Ms,
      p.promptTokens,
      p.completionTokens,
      p.replyCostUsd,
      p.titleCostUsd,
      // the same buckets, in the same order (both come from one plan)
      ...peopleCells(series.people.points[i]!),
    ]),
  );
  return csvRow(header) + rows.join('');
}
