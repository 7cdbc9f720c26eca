/**
 * The one owner of "does this conversation need the visitor's attention, and why".
 * Pure and dependency-free: the API, the widget and the admin all import it, so every
 * surface (sidebar dot, bold title, inbox, launcher badge, host badge, document title,
 * app badge) agrees by construction.
 */

/**
 * Highest priority first. `waiting` (the assistant handed the conversation to a person, who has
 * not taken it over yet) ranks below `unviewed` on purpose: an unread message must always show
 * and raise the badge (the one unread predicate is never hidden by a calmer state), and once read,
 * the row says a person will reply. Waiting is information for the visitor, not a call to act, so
 * no badge counts it; the console queues waiting conversations on their own (its filter and the
 * top of its list), whatever their attention state.
 */
export const ATTENTION_PRIORITY = ['live', 'input_needed', 'unviewed', 'waiting', 'default'] as const;
export type Attention = (typeof ATTENTION_PRIORITY)[number];

type Instant = Date | string | null | undefined;

/** Milliseconds of an API timestamp; a missing one is earlier than everything. */
export const instantMs = (t: Instant): number => (t == null ? Number.NEGATIVE_INFINITY : new Date(t).getTime());

/**
 * The unread predicate: a reply (or failed reply) newer than the newest one the visitor saw.
 * @example isUnread({ lastAssistantAt: '2026-01-01T10:00:00Z', lastReadAt: null }) // true
 */
export function isUnread(c: { lastAssistantAt: Instant; lastReadAt: Instant }): boolean {
  return c.lastAssistantAt != null && instantMs(c.lastAssistantAt) > instantMs(c.lastReadAt);
}

export interface AttentionInput {
  /** a run is claimed or streaming a reply, or visitor messages wait for the pipeline to answer them */
  live: boolean;
  /** the open question the assistant waits on, if any (its time is the question message's) */
  inputRequest?: { createdAt: Instant } | null;
  lastAssistantAt: Instant;
  lastReadAt: Instant;
  /** the assistant handed the conversation to a person who has not taken it over yet */
  waitingForPerson?: boolean;
}

/**
 * Input needed: an open question the visitor has not seen yet. Viewing acknowledges it as it
 * acknowledges an unread reply (the question IS a reply, so marking it read moves `lastReadAt`
 * to its time); the question itself stays open and answerable.
 * @example isInputNeeded({ inputRequest: { createdAt: T2 }, lastReadAt: T1 }) // true
 */
export function isInputNeeded(c: Pick<AttentionInput, 'inputRequest' | 'lastReadAt'>): boolean {
  return c.inputRequest != null && instantMs(c.inputRequest.createdAt) > instantMs(c.lastReadAt);
}

/** The single state a sidebar row shows, by priority live > input needed > unviewed > waiting > default. */
export function attentionOf(c: AttentionInput): Attention {
  if (c.live) return 'live';
  if (isInputNeeded(c)) return 'input_needed';
  if (isUnread(c)) return 'unviewed';
  if (c.waitingForPerson) return 'waiting';
  return 'default';
}

export interface AttentionCounts {
  unread: number;
  live: number;
  inputNeeded: number;
}

/** Counts per state over a list; a conversation counts once, under its highest-priority state (`waiting` is not counted: see ATTENTION_PRIORITY). */
export function countAttention(list: readonly AttentionInput[]): AttentionCounts {
  const counts: AttentionCounts = { unread: 0, live: 0, inputNeeded: 0 };
  for (const c of list) {
    const a = attentionOf(c);
    if (a === 'live') counts.live++;
    else if (a === 'input_needed') counts.inputNeeded++;
    else if (a === 'unviewed') counts.unread++;
  }
  return counts;
}

/** What a badge shows: the count of the highest-priority state that has any, or nothing. */
export function badgeOf(counts: AttentionCounts): { state: Exclude<Attention, 'default'>; count: number } | null {
  if (counts.live > 0) return { state: 'live', count: counts.live };
  if (counts.inputNeeded > 0) return { state: 'input_needed', count: counts.inputNeeded };
  if (counts.unread > 0) return { state: 'unviewed', count: counts.unread };
  return null;
}
