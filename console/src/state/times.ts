/**
 * Exact times for the transcript: to the second, with the zone named, in the operator's
 * own zone and (when known) in the visitor's, so "the visitor wrote at 23:14 their time"
 * needs no arithmetic.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string | undefined, locale?: string): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(key, f);
  }
  return f;
}

/** Whether the runtime knows this IANA zone name (a visitor's browser may report anything). */
export function isKnownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * An instant to the second in `timeZone` (the operator's own when absent).
 * @example exactTime('2026-01-01T12:00:05Z', 'UTC', 'en-GB') // '1 Jan 2026, 12:00:05 UTC'
 */
export function exactTime(t: string | Date, timeZone?: string, locale?: string): string {
  return formatIn(timeZone, locale).format(new Date(t));
}

/** The operator's time, and the visitor's after it when their zone is known and differs. */
export function bothTimes(
  t: string | Date,
  visitorZone: string | null | undefined,
  operatorZone?: string,
  locale?: string,
): { operator: string; visitor: string | null } {
  const operator = exactTime(t, operatorZone, locale);
  if (!isKnownZone(visitorZone)) return { operator, visitor: null };
  const mine = operatorZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { operator, visitor: visitorZone === mine ? null : exactTime(t, visitorZone, locale) };
}

/** A duration for people: `850 ms`, `2.4 s`, `3 min 5 s`; null stays a dash. */
export function duration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Milliseconds between two instants, or null when either is missing. */
export function between(from: string | Date | null | undefined, to: string | Date | null | undefined): number | null {
  if (from == null || to == null) return null;
  return new Date(to).getTime() - new Date(from).getTime();
}

/** US dollars with enough digits for a fraction of a cent (title checks cost ~$0.0001). */
export function usd(value: number | string | null | undefined): string {
  if (value == null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  return n >= 1 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2).replace(/\.?0+$/, '')}`;
}
