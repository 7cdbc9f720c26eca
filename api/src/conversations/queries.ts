import type { DbLike } from '../db/types.ts';
import { conversationSelect, messageSelect, toConversationView, toMessageView, type ConversationView, type MessageView } from './views.ts';

/** Most conversations a list returns; the sidebar shows the most recently active ones. */
export const LIST_LIMIT = 100;
/** Most messages a thread load returns (the newest ones). */
export const THREAD_LIMIT = 200;

export async function loadConversationView(db: DbLike, conversationId: string): Promise<ConversationView> {
  const row = await db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: conversationSelect });
  return toConversationView(row);
}

/**
 * The newest event id of a visitor, read BEFORE a snapshot query: a client that subscribes
 * from it misses nothing that happened after the snapshot (it may see a few twice, and
 * every event replaces state, so that is harmless).
 */
export async function eventCursor(db: DbLike, visitorId: string): Promise<string> {
  const last = await db.event.findFirst({ where: { visitorId }, orderBy: { id: 'desc' }, select: { id: true } });
  return (last?.id ?? 0n).toString();
}

export async function listConversations(db: DbLike, visitorId: string): Promise<{ cursor: string; conversations: ConversationView[] }> {
  const cursor = await eventCursor(db, visitorId);
  const rows = await db.conversation.findMany({
    where: { visitorId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
    take: LIST_LIMIT,
    select: conversationSelect,
  });
  const now = new Date();
  return { cursor, conversations: rows.map((r) => toConversationView(r, now)) };
}

/** A conversation of this visitor with its newest messages, or null when it is not theirs. */
export async function getConversation(
  db: DbLike,
  visitorId: string,
  conversationId: string,
): Promise<{ cursor: string; conversation: ConversationView; messages: MessageView[] } | null> {
  const cursor = await eventCursor(db, visitorId);
  const row = await db.conversation.findFirst({ where: { id: conversationId, visitorId }, select: conversationSelect });
  if (!row) return null;
  const messages = await db.message.findMany({
    where: { conversationId },
    orderBy: { seq: 'desc' },
    take: THREAD_LIMIT,
    select: messageSelect,
  });
  return { cursor, conversation: toConversationView(row), messages: messages.reverse().map(toMessageView) };
}
