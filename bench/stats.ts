/** Distribution of one measured quantity, in the unit of its samples. */
export interface Summary {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * Nearest-rank percentile of an ascending sample (no interpolation, so every figure is a value
 * that was actually observed). With fewer than 100 samples p99 is the maximum.
 * @example percentile([1, 2, 3, 4], 50) // 2
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/**
 * Summarizes a sample; an empty one gives NaN figures (printed as "–"), never a throw.
 * @example summarize([3, 1, 2]).p50 // 2
 */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length === 0 ? Number.NaN : sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    mean,
  };
}

/**
 * Rounds every number of a summary, for the JSON file (the raw samples carry noise digits).
 * @example rounded({ n: 2, p50: 1.23456, … }, 2).p50 // 1.23
 */
export function rounded<T extends object>(value: T, digits = 2): T {
  const factor = 10 ** digits;
  return Object.fromEntries(
    Object.entries(value).map(([key, x]) => [key, typeof x === 'number' && Number.isFinite(x) ? Math.round(x * factor) / factor : x]),
  ) as T;
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across one process. */
export const preciseNow = (): number => performance.timeOrigin + performance.now();

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
