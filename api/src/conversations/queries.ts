import type { DbLike } from '../db/types.ts';
import {
  conversationSelect,
  messageSelect,
  openRequestSelect,
  openTodoSelect,
  toConversationView,
  toMessageView,
  VIEW_TODOS_MAX,
  type ConversationView,
  type MessageView,
  type OpenItems,
} from './views.ts';

/** Most conversations a list returns; the sidebar shows the most recently active ones. */
export const LIST_LIMIT = 100;
/** Most messages a thread load returns (the newest ones). */
export const THREAD_LIMIT = 200;

export async function loadConversationView(db: DbLike, conversationId: string): Promise<ConversationView> {
  const row = await db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: conversationSelect });
  const [full] = await withOpenItems(db, [row]);
  return toConversationView(full!);
}

/**
 * Adds each conversation's open input request, open todos and whether visitor messages await
 * a reply (three queries, whatever the count; the last one reads the few `pending`/`claimed`
 * rows through `Message(state, createdAt)`).
 */
export async function withOpenItems<T extends { id: string }>(db: DbLike, rows: readonly T[]): Promise<(T & OpenItems)[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  // independent reads: concurrent outside a transaction (Prisma queues them inside one)
  const [requests, todos, awaiting] = await Promise.all([
    db.inputRequest.findMany({
      where: { conversationId: { in: ids }, status: 'open' },
      orderBy: { createdAt: 'asc' },
      select: openRequestSelect,
    }),
    db.todo.findMany({
      where: { conversationId: { in: ids }, status: 'open' },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: openTodoSelect,
    }),
    db.message.groupBy({
      by: ['conversationId'],
      where: { conversationId: { in: ids }, state: { in: ['pending', 'claimed'] } },
    }),
  ]);
  const awaitingOf = new Set(awaiting.map((m) => m.conversationId));
  // oldest first, so the newest open request wins should there ever be two
  const requestOf = new Map(requests.map((r) => [r.conversationId, r]));
  const todosOf = new Map<string, typeof todos>();
  for (const t of todos) todosOf.set(t.conversationId, [...(todosOf.get(t.conversationId) ?? []), t]);
  return rows.map((row) => ({
    ...row,
    inputRequest: requestOf.get(row.id) ?? null,
    todos: (todosOf.get(row.id) ?? []).slice(0, VIEW_TODOS_MAX),
    awaitingReply: awaitingOf.has(row.id),
  }));
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
  return { cursor, conversations: (await withOpenItems(db, rows)).map((r) => toConversationView(r, now)) };
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
  const [full] = await withOpenItems(db, [row]);
  return { cursor, conversation: toConversationView(full!), messages: messages.reverse().map(toMessageView) };
}
