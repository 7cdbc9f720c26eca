const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * "5 minutes ago", "yesterday", "now", in the widget's locale.
 * @example relativeTime('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:05:00Z')) // '5 minutes ago'
 */
export function relativeTime(iso: string, now = Date.now(), locale?: string): string {
  const diff = Date.parse(iso) - now;
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit);
  }
  return rtf.format(0, 'second');
}
