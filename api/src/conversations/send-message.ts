import { TRPCError } from '@trpc/server';
import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { fallbackTitle } from '../titles/fallback-title.ts';
import { loadConversationView } from './queries.ts';
import { messageSelect, toMessageView, type MessageView } from './views.ts';

export interface SendInput {
  visitorId: string;
  conversationId: string;
  clientMessageId: string;
  content: string;
}

/**
 * Puts a visitor's message in the outbox: a durable `pending` row, committed with its event
 * before the call returns. Idempotent on `clientMessageId`: a retried send (even two at
 * once) returns the same row and schedules nothing new. The first message also becomes
 * the fallback title. Workers are woken after commit; the batch is due after the debounce.
 */
export async function sendMessage(s: Services, input: SendInput): Promise<MessageView> {
  const message = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const conv = await tx.conversation.findFirst({
      where: { id: input.conversationId, visitorId: input.visitorId },
      select: { id: true, title: true },
    });
    if (!conv) throw new TRPCError({ code: 'NOT_FOUND', message: 'conversation not found' });

    // ON CONFLICT waits for a concurrent insert of the same key to commit, then yields to it.
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "Message" (id, "conversationId", role, content, "clientMessageId", state)
      VALUES (gen_random_uuid(), ${conv.id}::uuid, 'user', ${input.content}, ${input.clientMessageId}, 'pending')
      ON CONFLICT ("conversationId", "clientMessageId") DO NOTHING
      RETURNING id`;
    const row = await tx.message.findUniqueOrThrow({
      where: { conversationId_clientMessageId: { conversationId: conv.id, clientMessageId: input.clientMessageId } },
      select: messageSelect,
    });
    if (inserted.length === 0) return { view: toMessageView(row), isNew: false };

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
  if (message.isNew) await s.redis.publish(s.keys.scheduleChannel(), input.conversationId);
  return message.view;
}
