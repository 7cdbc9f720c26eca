import type { OverviewSeries } from './contract.ts';

/** One line of a chart. */
export interface ChartLine {
  label: string;
  values: (number | null)[];
  /** a unit for the axis and the data table */
  unit: 'count' | 'ms' | 'tokens' | 'usd';
}

/** One chart of the overview: x in Unix seconds (uPlot's time scale), a few lines over it. */
export interface ChartSpec {
  id: string;
  title: string;
  x: number[];
  lines: ChartLine[];
}

/** The overview's totals over the whole range, shown as numbers above the charts. */
export interface OverviewTotals {
  conversations: number;
  replies: number;
  failures: number;
  promptTokens: number;
  completionTokens: number;
  titleCostUsd: number;
  replyCostUsd: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The overview's charts from `console.overview.series`: conversations and replies per
 * bucket, time to first token p50/p95, failures by kind (one line per kind seen in the
 * range), model tokens in/out, and title and reply cost. Pure, so what each chart plots is
 * tested without a canvas.
 *
 * @example chartsOf(series).map((c) => c.title) // ['Conversations and replies', …]
 */
export function chartsOf(series: Pick<OverviewSeries, 'points'>): ChartSpec[] {
  const p = series.points;
  const x = p.map((pt) => Math.floor(new Date(pt.t).getTime() / 1000));
  const kinds = [...new Set(p.flatMap((pt) => Object.keys(pt.failuresByKind)))].sort();
  return [
    {
      id: 'activity',
      title: 'Conversations and replies',
      x,
      lines: [
        { label: 'Conversations', values: p.map((pt) => pt.conversations), unit: 'count' },
        { label: 'Replies', values: p.map((pt) => pt.replies), unit: 'count' },
      ],
    },
    {
      id: 'ttft',
      title: 'Time to first token',
      x,
      lines: [
        { label: 'p50', values: p.map((pt) => pt.ttftP50Ms), unit: 'ms' },
        { label: 'p95', values: p.map((pt) => pt.ttftP95Ms), unit: 'ms' },
      ],
    },
    {
      id: 'failures',
      title: 'Failures by kind',
      x,
      lines: kinds.length
        ? kinds.map((k) => ({ label: k.replace(/_/g, ' '), values: p.map((pt) => pt.failuresByKind[k] ?? 0), unit: 'count' as const }))
        : [{ label: 'Failures', values: p.map((pt) => pt.failures), unit: 'count' }],
    },
    {
      id: 'tokens',
      title: 'Model tokens',
      x,
      lines: [
        { label: 'Tokens in', values: p.map((pt) => pt.promptTokens), unit: 'tokens' },
        { label: 'Tokens out', values: p.map((pt) => pt.completionTokens), unit: 'tokens' },
      ],
    },
    {
      id: 'cost',
      title: 'Cost',
      x,
      lines: [
        { label: 'Title cost', values: p.map((pt) => Number(pt.titleCostUsd)), unit: 'usd' },
        { label: 'Reply cost', values: p.map((pt) => Number(pt.replyCostUsd)), unit: 'usd' },
      ],
    },
  ];
}

/** Sums over the range. */
export function totalsOf(series: Pick<OverviewSeries, 'points'>): OverviewTotals {
  const p = series.points;
  return {
    conversations: sum(p.map((pt) => pt.conversations)),
    replies: sum(p.map((pt) => pt.replies)),
    failures: sum(p.map((pt) => pt.failures)),
    promptTokens: sum(p.map((pt) => pt.promptTokens)),
    completionTokens: sum(p.map((pt) => pt.completionTokens)),
    titleCostUsd: sum(p.map((pt) => Number(pt.titleCostUsd))),
    replyCostUsd: sum(p.map((pt) => Number(pt.replyCostUsd))),
  };
}

/** A value as the data table and the axis show it. */
export function formatValue(v: number | null, unit: ChartLine['unit']): string {
  if (v == null) return '—';
  if (unit === 'ms') return `${Math.round(v)} ms`;
  if (unit === 'usd') return `$${v.toFixed(v >= 1 ? 2 : 4)}`;
  return Math.round(v).toLocaleString();
}
