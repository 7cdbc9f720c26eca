import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from './queries.ts';
import type { ConversationView } from './views.ts';

/**
 * Records that the visitor saw the reply stamped `seenAssistantAt`. The read marker only
 * moves forward and never past the newest reply: a mark racing a newer reply leaves that
 * reply unread. Returns null when the conversation is not this visitor's.
 */
export async function markRead(
  s: Services,
  input: { visitorId: string; conversationId: string; seenAssistantAt: Date },
): Promise<ConversationView | null> {
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const moved = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Conversation"
      SET "lastReadAt" = LEAST(${input.seenAssistantAt}::timestamptz, "lastAssistantAt")
      WHERE id = ${input.conversationId}::uuid AND "visitorId" = ${input.visitorId}::uuid
        AND "lastAssistantAt" IS NOT NULL
        AND ("lastReadAt" IS NULL OR "lastReadAt" < LEAST(${input.seenAssistantAt}::timestamptz, "lastAssistantAt"))
      RETURNING id`;
    const owned = await tx.conversation.count({ where: { id: input.conversationId, visitorId: input.visitorId } });
    if (owned === 0) return null;
    const conversation = await loadConversationView(tx, input.conversationId);
    // Only a real move is news; repeated marks (every focus, every tab) stay silent.
    if (moved.length > 0) emit(input.visitorId, { type: 'conversation.updated', conversationId: input.conversationId, conversation });
    return conversation;
  });
}
