const DAY = 86_400_000;
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', DAY],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * When something happened, in the widget's locale: "5 minutes ago", "yesterday", "now"
 * within a week (`Intl.RelativeTimeFormat`), a date beyond ("12 Mar", "12 Mar 2025" from
 * another year, by `Intl.DateTimeFormat`): "7 weeks ago" says less than the date.
 *
 * @example relativeTime('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:05:00Z')) // '5 minutes ago'
 * @example relativeTime('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:05:00Z'), 'de') // 'vor 5 Minuten'
 */
export function relativeTime(iso: string, now = Date.now(), locale?: string): string {
  const at = Date.parse(iso);
  const diff = at - now;
  if (Math.abs(diff) >= 7 * DAY) {
    const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear();
    return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: sameYear ? undefined : 'numeric' }).format(at);
  }
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit);
  }
  return rtf.format(0, 'second');
}
