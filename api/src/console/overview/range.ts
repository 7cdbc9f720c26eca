import { z } from 'zod';

/** The overview's time ranges, as the console's range picker names them. */
export const overviewRange = z.enum(['24h', '7d', '30d']);
export type OverviewRange = z.infer<typeof overviewRange>;

/** The width of one chart point. */
export type BucketUnit = 'hour' | 'day';

/** The buckets of one range: `count` consecutive UTC buckets of `stepSeconds`, the first starting at `start`. */
export interface BucketPlan {
  bucket: BucketUnit;
  stepSeconds: number;
  count: number;
  /** the first bucket's start (a UTC hour or midnight) */
  start: Date;
  /** the end of the last bucket (exclusive); the current bucket is the last one, so `end` is in the future */
  end: Date;
}

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

const PLANS: Record<OverviewRange, { bucket: BucketUnit; stepSeconds: number; count: number }> = {
  '24h': { bucket: 'hour', stepSeconds: HOUR_S, count: 24 },
  '7d': { bucket: 'day', stepSeconds: DAY_S, count: 7 },
  '30d': { bucket: 'day', stepSeconds: DAY_S, count: 30 },
};

/**
 * The buckets a range covers at `now`: whole UTC hours (24h) or UTC days (7d, 30d), the last
 * one being the current, still-filling bucket. Days are UTC on purpose: the same day means the
 * same rows for every operator, whatever their zone, and matches `SiteUsage.day`.
 * @example planBuckets('7d', new Date('2026-12-01T10:30:00Z')).start // 2026-11-25T00:00:00.000Z
 */
export function planBuckets(range: OverviewRange, now: Date = new Date()): BucketPlan {
  const plan = PLANS[range];
  const stepMs = plan.stepSeconds * 1000;
  // Epoch-aligned floors are UTC hours and UTC midnights (no leap seconds in epoch time).
  const current = Math.floor(now.getTime() / stepMs) * stepMs;
  const start = current - (plan.count - 1) * stepMs;
  return { ...plan, start: new Date(start), end: new Date(current + stepMs) };
}
