import type { OverviewSeries } from '../overview/series.ts';
import { csvRow } from './csv.ts';

/**
 * The overview's series as CSV: one row per bucket, oldest first, the same figures the charts
 * draw. Failures by kind become one `failures_<code>` column per code seen in the range (sorted),
 * so a spreadsheet can chart each kind without parsing JSON. The team's figures of each bucket
 * follow: first responses and resolutions with their p50/p90 in seconds, and the ratings
 * (the per-operator figures and the comments are the console's: they are not per bucket).
 * @example overviewCsv(await overviewSeries(db, { range: '7d' })) // 't,conversations,replies,…\r\n2026-11-25T00:00:00.000Z,3,5,…'
 */
export function overviewCsv(series: OverviewSeries): string {
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
    'first_responses',
    'first_response_p50_s',
    'first_response_p90_s',
    'resolutions',
    'resolution_p50_s',
    'resolution_p90_s',
    'ratings_helpful',
    'ratings_not_helpful',
  ];
  const rows = series.points.map((p, i) => {
    // the same buckets, in the same order (both come from one plan)
    const h = series.people.points[i]!;
    return csvRow([
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
      h.firstResponses,
      h.firstResponseP50S,
      h.firstResponseP90S,
      h.resolutions,
      h.resolutionP50S,
      h.resolutionP90S,
      h.helpful,
      h.notHelpful,
    ]);
  });
  return csvRow(header) + rows.join('');
}
