/** A claimed user message as the turn renderer sees it. */
export interface ClaimedItem {
  content: string;
  createdAt: Date;
}

/** Title of the section that holds a multi-message pending batch. */
export const UNANSWERED_HEADING = 'Unanswered messages';

/**
 * Renders the pending batch as the final user turn: one row is its own text; several
 * become one "Unanswered messages" section that states the count, asks for every item
 * to be covered, and prefixes each item with its local time in the visitor's zone.
 * Pure: the same batch always renders the same prompt.
 *
 * @example pendingTurn([{ content: 'hi', createdAt }], 'Europe/Paris') // 'hi'
 */
export function pendingTurn(claimed: readonly ClaimedItem[], timeZone: string): string {
  if (claimed.length === 0) throw new Error('pendingTurn needs at least one claimed message');
  if (claimed.length === 1) return claimed[0]!.content;
  const stamp = localTimeFormatter(timeZone);
  const items = claimed.map((m, i) => `${i + 1}. [${stamp(m.createdAt)}] ${m.content}`);
  return [
    `## ${UNANSWERED_HEADING}`,
    `There are ${claimed.length} items below, sent one after another before you could reply. ` +
      `Cover each one of them in your reply. Times are the visitor's local time (${safeZone(timeZone)}).`,
    '',
    ...items,
  ].join('\n');
}

/** `2026-11-29 14:03:07` in the given zone; falls back to UTC for an unknown zone. */
export function localTimeFormatter(timeZone: string): (d: Date) => string {
  const fmt = zoneFormat(timeZone).format;
  return (d) => {
    const p = Object.fromEntries(fmt.formatToParts(d).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
}

/** The zone if the runtime knows it, else UTC (visitors' browsers can send anything). */
export function safeZone(timeZone: string): string {
  return zoneFormat(timeZone).zone;
}

/**
 * Building an `Intl.DateTimeFormat` is the costly part (ICU loads the zone): with three built
 * per batch it was 2.6 % of the worker's CPU in the ingest bench's profile (2026-12-02). So
 * formats are kept per zone name; the map stops growing at MAX_ZONES (case variants of a name
 * are each valid), after which a format is built per call, as before.
 */
const MAX_ZONES = 1_000;
const formats = new Map<string, { zone: string; format: Intl.DateTimeFormat }>();

function zoneFormat(timeZone: string): { zone: string; format: Intl.DateTimeFormat } {
  const known = formats.get(timeZone);
  if (known) return known;
  let entry: { zone: string; format: Intl.DateTimeFormat };
  try {
    entry = { zone: timeZone, format: secondsIn(timeZone) };
  } catch {
    entry = zoneFormat('UTC');
  }
  if (formats.size < MAX_ZONES) formats.set(timeZone, entry);
  return entry;
}

const secondsIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
