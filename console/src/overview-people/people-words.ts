/**
 * A waiting time as people say it: `45 s`, `4 min 5 s`, `2 h 10 min`, `3 d 4 h`; null (nothing
 * timed) is a dash. The larger units drop the smaller ones: the seconds of a two-hour wait are noise.
 * @example waitText(245) // '4 min 5 s'
 */
export function waitText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  const two = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`;
  if (s < 60) return `${s} s`;
  if (s < 3600) return two(Math.floor(s / 60), 'min', s % 60, 's');
  if (s < 86_400) return two(Math.floor(s / 3600), 'h', Math.floor((s % 3600) / 60), 'min');
  return two(Math.floor(s / 86_400), 'd', Math.floor((s % 86_400) / 3600), 'h');
}

/** 👍 among the ratings as a whole percentage, or a dash without ratings. */
export function shareText(share: number | null): string {
  return share === null ? '—' : `${Math.round(share * 100)} %`;
}

/**
 * A bucket's start as its row header: a UTC day (`5 Oct`; the overview's days are UTC days) or,
 * for 24 hours, the hour in the operator's own zone (`5 Oct, 14:00`).
 */
export function bucketText(t: string, bucket: 'hour' | 'day', locale?: string): string {
  const at = new Date(t);
  return bucket === 'day'
    ? at.toLocaleDateString(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' })
    : at.toLocaleString(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}
