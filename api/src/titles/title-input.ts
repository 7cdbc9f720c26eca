import type { DbLike } from '../db/types.ts';
import { truncateOnWord } from '../shared/excerpt.ts';
import { redact } from './redact.ts';

/** How much of a conversation a title model may see. */
export const TITLE_INPUT_LIMITS = {
  /** the visitor's first messages: what the conversation was opened for */
  first: 3,
  /** the visitor's latest messages: whether the subject moved */
  latest: 3,
  /** characters per message, after redaction */
  perMessage: 500,
  /** characters over all messages; shared evenly when the messages are long */
  total: 2400,
} as const;

/** The visitor's own words, redacted and capped: the only conversation text a title model gets. */
export interface TitleInput {
  /** the earliest messages, oldest first: what the conversation was opened for */
  first: string[];
  /** the newest messages (never the very first one), oldest first: whether the subject moved */
  latest: string[];
}

/**
 * Loads the visitor's first and latest messages of a conversation, never the same message
 * twice; the newest ones count as latest, so with two messages the second one is "latest".
 * Only `user` rows are read: assistant replies, operator messages, failures and any
 * metadata never reach a title model, whatever they contain.
 */
export async function loadTitleInput(db: DbLike, conversationId: string): Promise<TitleInput> {
  const where = { conversationId, role: 'user' as const };
  const select = { id: true, content: true };
  const [oldest, newest] = await Promise.all([
    db.message.findMany({ where, orderBy: { seq: 'asc' }, take: TITLE_INPUT_LIMITS.first, select }),
    db.message.findMany({ where, orderBy: { seq: 'desc' }, take: TITLE_INPUT_LIMITS.latest, select }),
  ]);
  const latest = newest.filter((m) => m.id !== oldest[0]?.id).reverse();
  const latestIds = new Set(latest.map((m) => m.id));
  return prepareTitleInput(
    oldest.filter((m) => !latestIds.has(m.id)).map((m) => m.content),
    latest.map((m) => m.content),
  );
}

/**
 * Redacts, then caps (so a cut can never leave half a secret behind): each message to the
 * smaller of its own cap and an even share of the total.
 * @example prepareTitleInput(['Mail jo@example.com'], []) // { first: ['Mail [email]'], latest: [] }
 */
export function prepareTitleInput(first: readonly string[], latest: readonly string[]): TitleInput {
  const count = Math.max(1, first.length + latest.length);
  const cap = Math.min(TITLE_INPUT_LIMITS.perMessage, Math.floor(TITLE_INPUT_LIMITS.total / count));
  const prepare = (texts: readonly string[]) => texts.map((t) => truncateOnWord(redact(t), cap)).filter((t) => t.length > 0);
  return { first: prepare(first), latest: prepare(latest) };
}
