import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from './queries.ts';

/**
 * Puts a failed batch back in the outbox; it is due at once (its rows are older than the
 * debounce). Returns how many messages were re-queued, or null when the conversation is
 * not this visitor's.
 */
export async function retryFailed(s: Services, input: { visitorId: string; conversationId: string }): Promise<number | null> {
  const n = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const owned = await tx.conversation.count({ where: { id: input.conversationId, visitorId: input.visitorId } });
    if (owned === 0) return null;
    const { count } = await tx.message.updateMany({
      where: { conversationId: input.conversationId, role: 'user', state: 'failed' },
      data: { state: 'pending' },
    });
    if (count > 0) {
      emit(input.visitorId, {
        type: 'conversation.updated',
        conversationId: input.conversationId,
        conversation: await loadConversationView(tx, input.conversationId),
      });
    }
    return count;
  });
  if (n) await s.redis.publish(s.keys.scheduleChannel(), input.conversationId);
  return n;
}
