import { Prisma } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import { excerptOf } from '../shared/excerpt.ts';
import type { Provenance } from '../shared/provenance.ts';
import type { CitedSource } from '../shared/citations.ts';
import { messageColumnsSelect, type MessageRow } from './views.ts';

/** A message for the visitor to read: a reply, a failed reply, an operator's words, an unsolicited message. */
export interface VisitorFacingMessage {
  conversationId: string;
  visitorId: string;
  role: 'assistant' | 'operator';
  content: string;
  /** null on a reply to the visitor's own words */
  provenance?: Provenance | null;
  provenanceLabel?: string | null;
  operatorId?: string | null;
  runId?: string | null;
  /** a failed reply's code */
  error?: string | null;
  /** a reply the model stopped at its token cap */
  cutShort?: boolean;
  /** the site's pages the reply cites */
  sources?: CitedSource[];
  /** the writer's idempotency key (an operator's console send) */
  clientMessageId?: string | null;
  /** the excerpt when it is not the content's first line (a question, a failure), already bounded */
  excerpt?: string;
}

/**
 * THE unread write: stores a message the visitor should read and moves the conversation's
 * unread metadata with it (`lastAssistantAt`, the bounded excerpt, the activity order), in the
 * caller's transaction. Every voice writes through here (fenced replies and failed replies,
 * operators, intents, check-ins, server-to-server messages), so the one unread predicate sees
 * them all alike: there is no second path that could forget the unread write
 * (docs/architecture/other-voices.md).
 */
export async function speakToVisitor(tx: Tx, m: VisitorFacingMessage): Promise<MessageRow> {
  const message = await storeMessage(tx, {
    conversationId: m.conversationId,
    visitorId: m.visitorId,
    role: m.role,
    content: m.content,
    provenance: m.provenance ?? null,
    provenanceLabel: m.provenanceLabel ?? null,
    operatorId: m.operatorId ?? null,
    runId: m.runId ?? null,
    error: m.error ?? null,
    cutShort: m.cutShort ?? false,
    sources: m.sources?.length ? m.sources : Prisma.DbNull,
    clientMessageId: m.clientMessageId ?? null,
  });
  await tx.$executeRaw`UPDATE "Conversation" SET ${unreadMove(message.createdAt, m.excerpt ?? excerptOf(m.content))} WHERE id = ${m.conversationId}::uuid`;
  return message;
}

/**
 * The conversation's columns THE unread write moves, as an UPDATE's SET list: the reply's time
 * `at`, a value or SQL (the message's `createdAt`, so the two always agree) and its bounded excerpt. Its own export
 * for the one writer that stores a reply in its own statements (chat/run/store-reply.ts).
 */
export const unreadMove = (at: Date | Prisma.Sql, excerpt: string) =>
  Prisma.sql`"lastAssistantAt" = ${at}, excerpt = ${excerpt}, "updatedAt" = ${at}`;

/**
 * A line about the conversation itself ("Ana joined", "A person will reply here"): shown in the
 * thread, never unread (it moves no unread metadata), never sent to the model as anyone's words.
 */
export async function addNotice(
  tx: Tx,
  n: {
    conversationId: string;
    visitorId: string;
    provenance: 'operator_joined' | 'operator_left' | 'handed_back' | 'handoff_requested';
    provenanceLabel: string | null;
    operatorId?: string | null;
  },
): Promise<MessageRow> {
  return storeMessage(tx, {
    conversationId: n.conversationId,
    visitorId: n.visitorId,
    role: 'notice',
    content: '',
    provenance: n.provenance,
    provenanceLabel: n.provenanceLabel,
    operatorId: n.operatorId ?? null,
  });
}

/**
 * Inserts a message and reads back its view's columns in the same statement. It has no input
 * request yet, so the relation is not read: through `messageSelect` Prisma spent two more SELECTs on it.
 */
async function storeMessage(tx: Tx, data: Prisma.MessageUncheckedCreateInput): Promise<MessageRow> {
  return { ...(await tx.message.create({ data, select: messageColumnsSelect })), inputRequest: null };
}
