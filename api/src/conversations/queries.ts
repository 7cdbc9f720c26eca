import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';
import {
  conversationSelect,
  messageSelect,
  openRequestSelect,
  openTodoSelect,
  toConversationView,
  toMessageView,
  VIEW_TODOS_MAX,
  type ConversationRow,
  type ConversationView,
  type MessageView,
  type OpenItems,
} from './views.ts';

/** Most conversations a list returns; the sidebar shows the most recently active ones. */
export const LIST_LIMIT = 100;
/** Most messages a thread load returns (the newest ones). */
export const THREAD_LIMIT = 200;

/**
 * One conversation's view, in one statement. Every run's claim and end and every send build one
 * inside their transaction, where Prisma sends each query on its own: `conversationSelect`'s
 * relations (the holder, the latest run) plus the three open-item reads made five round trips
 * in four waves, 4 ms of the claim on an idle machine and 7-10 under load (the debounce
 * bench). The columns are `conversationSelect`'s and `withOpenItems`' (kept together with them:
 * a field added there must be added here). Throws like `findUniqueOrThrow` when there is no row.
 */
export async function loadConversationView(db: DbLike, conversationId: string): Promise<ConversationView> {
  const [row] = await db.$queryRaw<ViewRow[]>(conversationViewSql(conversationId));
  if (!row) throw new Error(`No Conversation found: ${conversationId}`);
  return viewOfRow(row);
}

/**
 * {@link loadConversationView}'s statement, for a statement that reads the view beside its own
 * work (a claim: chat/schedule/claim-batch.ts) and makes the view with {@link viewOfRow}.
 */
export function conversationViewSql(conversationId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.id, c.title, c."titleSource"::text AS "titleSource", c.excerpt, c."lastAssistantAt", c."lastReadAt",
      c."createdAt", c."updatedAt", c."waitingSince", c.private, o.name AS "heldByName",
      c.status::text AS status, c."snoozedUntil", c."resolvedAt", c.rating, c."ratedAt",
      r.id AS "runId", r.status::text AS "runStatus", r."leaseUntil" AS "runLeaseUntil", r."proactiveId" AS "runProactiveId",
      q.id AS "requestId", q.question AS "requestQuestion", q.choices AS "requestChoices",
      q."allowFreeText" AS "requestAllowFreeText", q."createdAt" AS "requestCreatedAt",
      (SELECT coalesce(json_agg(json_build_object('id', t.id, 'text', t.text, 'createdAt', t."createdAt")
                                ORDER BY t."createdAt" DESC, t.id DESC), '[]')
         FROM (SELECT * FROM "Todo" t WHERE t."conversationId" = c.id AND t.status = 'open'
               ORDER BY t."createdAt" DESC, t.id DESC LIMIT ${VIEW_TODOS_MAX}) t) AS todos,
      EXISTS (SELECT 1 FROM "Message" m WHERE m."conversationId" = c.id AND m.state IN ('pending', 'claimed')) AS "awaitingReply"
    FROM "Conversation" c
    LEFT JOIN "Operator" o ON o.id = c."heldById"
    LEFT JOIN LATERAL (SELECT * FROM "Run" r WHERE r."conversationId" = c.id ORDER BY r.fence DESC LIMIT 1) r ON true
    LEFT JOIN LATERAL (SELECT * FROM "InputRequest" q WHERE q."conversationId" = c.id AND q.status = 'open'
                       ORDER BY q."createdAt" DESC LIMIT 1) q ON true
    WHERE c.id = ${conversationId}::uuid`;
}

/**
 * The view of a {@link conversationViewSql} row. `latestRun`, when given, stands for the row's
 * latest run: a claim's statement reads the view as it was before the run it opens.
 */
export function viewOfRow(row: ViewRow, latestRun?: ConversationRow['runs'][number]): ConversationView {
  const conversation = fromViewRow(row);
  return toConversationView(latestRun ? { ...conversation, runs: [latestRun] } : conversation);
}

/** What {@link conversationViewSql} returns: one flat row. */
export interface ViewRow {
  id: string;
  title: string | null;
  titleSource: ConversationRow['titleSource'];
  excerpt: string | null;
  lastAssistantAt: Date | null;
  lastReadAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  waitingSince: Date | null;
  private: boolean;
  heldByName: string | null;
  status: NonNullable<ConversationRow['status']>;
  snoozedUntil: Date | null;
  resolvedAt: Date | null;
  rating: number | null;
  ratedAt: Date | null;
  runId: string | null;
  runStatus: ConversationRow['runs'][number]['status'] | null;
  runLeaseUntil: Date | null;
  runProactiveId: string | null;
  requestId: string | null;
  requestQuestion: string | null;
  requestChoices: string[] | null;
  requestAllowFreeText: boolean | null;
  requestCreatedAt: Date | null;
  todos: { id: string; text: string; createdAt: string }[];
  awaitingReply: boolean;
}

function fromViewRow(r: ViewRow): ConversationRow {
  return {
    id: r.id,
    title: r.title,
    titleSource: r.titleSource,
    excerpt: r.excerpt,
    lastAssistantAt: r.lastAssistantAt,
    lastReadAt: r.lastReadAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    waitingSince: r.waitingSince,
    private: r.private,
    status: r.status,
    snoozedUntil: r.snoozedUntil,
    resolvedAt: r.resolvedAt,
    rating: r.rating,
    ratedAt: r.ratedAt,
    heldBy: r.heldByName === null ? null : { name: r.heldByName },
    runs: r.runId === null ? [] : [{ id: r.runId, status: r.runStatus!, leaseUntil: r.runLeaseUntil!, proactiveId: r.runProactiveId }],
    inputRequest:
      r.requestId === null
        ? null
        : {
            conversationId: r.id,
            id: r.requestId,
            question: r.requestQuestion!,
            choices: r.requestChoices ?? [],
            allowFreeText: r.requestAllowFreeText!,
            createdAt: r.requestCreatedAt!,
          },
    todos: r.todos.map((t) => ({ conversationId: r.id, id: t.id, text: t.text, createdAt: new Date(t.createdAt) })),
    awaitingReply: r.awaitingReply,
  };
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
