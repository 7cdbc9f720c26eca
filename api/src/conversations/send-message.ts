import { TRPCError } from '@trpc/server';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../db/types.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { fallbackTitle } from '../titles/fallback-title.ts';
import { refuse } from '../trpc/refusal.ts';
import { loadConversationView } from './queries.ts';
import { messageSelect, toMessageView, type MessageView } from './views.ts';

export interface SendInput {
  visitorId: string;
  conversationId: string;
  clientMessageId: string;
  content: string;
  /** the open input request of this conversation that this message answers */
  answersRequestId?: string;
}

/**
 * Puts a visitor's message in the outbox: a durable `pending` row, committed with its event
 * before the call returns. Idempotent on `clientMessageId`: a retried send (even two at
 * once) returns the same row and schedules nothing new. The first message also becomes
 * the fallback title. Workers are woken after commit; the batch is due after the debounce.
 *
 * With `answersRequestId` the message also answers the conversation's open question, in the
 * same transaction: the request becomes `answered` (so input needed clears at once, before the
 * answering run even starts) and the next run hands the text to the model as that tool call's
 * result. NOT_FOUND for a request of another conversation; BAD_REQUEST once it is closed (a
 * racing second answer loses on the row lock and stores nothing).
 *
 * A conversation holds at most PENDING_MAX_MESSAGES unanswered messages of PENDING_MAX_CHARS
 * characters together (they all become the next prompt's final turn, which no token budget
 * trims): a send beyond either is refused with TOO_MANY_REQUESTS `pending_batch_full` and
 * stores nothing. A retry of a message already stored still returns it.
 */
export async function sendMessage(s: Services, input: SendInput): Promise<MessageView> {
  const message = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    // Row lock: the sends of one conversation serialize here (claims take the same lock), so
    // the pending cap holds under concurrent sends.
    const [conv] = await tx.$queryRaw<{ id: string; title: string | null }[]>`
      SELECT id, title FROM "Conversation"
      WHERE id = ${input.conversationId}::uuid AND "visitorId" = ${input.visitorId}::uuid
      FOR NO KEY UPDATE`;
    if (!conv) throw new TRPCError({ code: 'NOT_FOUND', message: 'conversation not found' });
    const stored = await tx.message.findUnique({
      where: { conversationId_clientMessageId: { conversationId: conv.id, clientMessageId: input.clientMessageId } },
      select: messageSelect,
    });
    if (stored) return { view: toMessageView(stored), isNew: false };
    await assertRoomInBatch(tx, s.config, { conversationId: conv.id, content: input.content });

    // The row lock already serializes retries of one key; ON CONFLICT keeps the unique key the last word.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, "clientMessageId", state)
      VALUES (gen_random_uuid(), ${conv.id}::uuid, ${input.visitorId}::uuid, 'user', ${input.content}, ${input.clientMessageId}, 'pending')
      ON CONFLICT ("conversationId", "clientMessageId") DO NOTHING
      RETURNING id`;
    const row = await tx.message.findUniqueOrThrow({
      where: { conversationId_clientMessageId: { conversationId: conv.id, clientMessageId: input.clientMessageId } },
      select: messageSelect,
    });
    if (inserted.length === 0) return { view: toMessageView(row), isNew: false };
    if (input.answersRequestId) await answerRequest(tx, { conversationId: conv.id, requestId: input.answersRequestId, messageId: row.id });

    await tx.conversation.update({
      where: { id: conv.id },
      data: {
        updatedAt: row.createdAt,
        ...(conv.title === null ? { title: fallbackTitle(input.content), titleSource: 'first_message', titleState: 'pending' } : {}),
      },
    });
    const view = toMessageView(row);
    emit(input.visitorId, { type: 'message.created', conversationId: conv.id, message: view });
    emit(input.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
    return { view, isNew: true };
  });
  if (message.isNew) {
    s.metrics.sends.inc();
    await s.redis.publish(s.keys.scheduleChannel(), input.conversationId);
  }
  return message.view;
}

/**
 * Refuses a send that would take the conversation's unanswered messages (pending, claimed by
 * a run, or failed: everything the next final turn may hold) past the configured caps.
 */
async function assertRoomInBatch(tx: Tx, config: Config, a: { conversationId: string; content: string }): Promise<void> {
  const [held] = await tx.$queryRaw<{ messages: number; chars: number }[]>`
    SELECT count(*)::int AS messages, coalesce(sum(char_length(content)), 0)::int AS chars
    FROM "Message"
    WHERE "conversationId" = ${a.conversationId}::uuid AND role = 'user' AND state IN ('pending', 'claimed', 'failed')`;
  const messages = (held?.messages ?? 0) + 1;
  const chars = (held?.chars ?? 0) + Array.from(a.content).length;
  if (messages <= config.PENDING_MAX_MESSAGES && chars <= config.PENDING_MAX_CHARS) return;
  throw refuse('TOO_MANY_REQUESTS', 'pending_batch_full', 'Too much is waiting for a reply in this conversation. Wait for the reply, then send again.');
}

/** Links the answer to its request, only while the request is open (the WHERE is the rule). */
async function answerRequest(tx: Tx, a: { conversationId: string; requestId: string; messageId: string }): Promise<void> {
  const n = await tx.$executeRaw`
    UPDATE "InputRequest" SET status = 'answered', "answerMessageId" = ${a.messageId}::uuid, "closedAt" = now()
    WHERE id = ${a.requestId}::uuid AND "conversationId" = ${a.conversationId}::uuid AND status = 'open'`;
  if (n === 1) return;
  const exists = await tx.inputRequest.count({ where: { id: a.requestId, conversationId: a.conversationId } });
  if (exists === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'input request not found' });
  throw new TRPCError({ code: 'BAD_REQUEST', message: 'this question was already answered' });
}
