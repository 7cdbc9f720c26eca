/** Where a conversation stands for the site's team, as every surface reads it. */
export type TeamStatus = 'open' | 'resolved' | 'snoozed';

/** The visitor's rating of a resolution: helpful or not. */
export type Rating = 1 | -1;

/**
 * The status as it reads at `now`: a snooze whose `snoozedUntil` has passed (or has none) is
 * `open` again without a write, so no job has to wake it. A row read without its status (an
 * older select) reads `open`.
 * @example visibleStatus({ status: 'snoozed', snoozedUntil: new Date(0) }, new Date()) // 'open'
 */
export function visibleStatus(c: { status?: TeamStatus | null; snoozedUntil?: Date | null }, now: Date): TeamStatus {
  if (c.status === 'snoozed') return c.snoozedUntil && c.snoozedUntil > now ? 'snoozed' : 'open';
  return c.status ?? 'open';
}

/**
 * The visitor's rating of the conversation's latest resolution, or null: one given before the
 * conversation was resolved again (reopened by the visitor, resolved anew) belongs to the earlier
 * resolution, so the widget asks again. The row keeps that older rating until a new one replaces it.
 * @example currentRating({ rating: 1, ratedAt: t2, resolvedAt: t1 }) // 1 (t2 ≥ t1)
 */
export function currentRating(c: { rating?: number | null; ratedAt?: Date | null; resolvedAt?: Date | null }): Rating | null {
  if (c.rating !== 1 && c.rating !== -1) return null;
  if (!c.ratedAt || (c.resolvedAt && c.ratedAt < c.resolvedAt)) return null;
  return c.rating;
}
