import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { notFound, refuse } from '../errors/refusal.ts';
import { continuableReply } from '../shared/cut-short.ts';
import { loadConversationView } from './queries.ts';
import { messageSelect, toMessageView, type MessageView } from './views.ts';
import { wakeWorkers } from './send-message.ts';

/** How many of the newest messages the rule reads: notices aside, only the newest decides. */
const NEWEST = 20;

/**
 * The visitor asks for the rest of a reply the model cut short. What is stored is an outbox row
 * like a send (`provenance: 'continue'`, no words): a run claims it as it claims any batch, and
 * the model is asked to go on from where the reply stopped, with the visitor's earlier messages
 * staying answered history (never re-sent as unanswered). Only the reply `continuableReply` names
 * may be continued (CONFLICT `nothing_to_continue` otherwise: anything since, or a whole reply).
 * Idempotent on `clientMessageId`, like a send. NOT_FOUND for another visitor's conversation.
 */
export async function continueReply(
  s: Services,
  input: { visitorId: string; conversationId: string; messageId: string; clientMessageId: string },
): Promise<MessageView> {
  const { message, isNew } = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const [conv] = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Conversation" WHERE id = ${input.conversationId}::uuid AND "visitorId" = ${input.visitorId}::uuid FOR UPDATE`;
    if (!conv) throw notFound('conversation');
    const same = await tx.message.findUnique({
      where: { conversationId_clientMessageId: { conversationId: conv.id, clientMessageId: input.clientMessageId } },
      select: messageSelect,
    });
    if (same) return { message: same, isNew: false };
    const newest = await tx.message.findMany({
      where: { conversationId: conv.id },
      orderBy: { seq: 'desc' },
      take: NEWEST,
      select: { id: true, role: true, cutShort: true, error: true },
    });
    if (continuableReply(newest.reverse()) !== input.messageId) {
      throw refuse('conflict', 'nothing_to_continue', 'Only the newest reply, when it was cut short, can be continued.');
    }
    const created = await tx.message.create({
      data: {
        conversationId: conv.id,
        visitorId: input.visitorId,
        role: 'user',
        content: '',
        provenance: 'continue',
        clientMessageId: input.clientMessageId,
        state: 'pending',
      },
      select: messageSelect,
    });
    emit(input.visitorId, { type: 'message.created', conversationId: conv.id, message: toMessageView(created) });
    emit(input.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
    return { message: created, isNew: true };
  });
  if (isNew) await wakeWorkers(s, input.conversationId);
  return toMessageView(message);
}
