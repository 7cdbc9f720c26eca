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
  const fmt = new Intl.DateTimeFormat('en-CA', {
    timeZone: safeZone(timeZone),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return (d) => {
    const p = Object.fromEntries(fmt.formatToParts(d).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };
}

/** The zone if the runtime knows it, else UTC (visitors' browsers can send anything). */
export function safeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}
