import type { Services } from '../services.ts';
import type { DoomedConversation } from './remove-conversations.ts';
import { removeLockedConversations } from './remove-locked.ts';

/**
 * A visitor deletes one of their own conversations for good: it goes with everything it left
 * behind (removeConversations), its files' bytes included, and a content-free
 * `conversation.deleted` event tells the visitor's other tabs; the console's live lists drop it
 * (their re-read of the conversation finds nothing). False when it is not theirs or already gone.
 * @example if (!(await deleteOwnConversation(services, { visitorId, conversationId }))) throw notFound('conversation');
 */
export async function deleteOwnConversation(s: Services, q: { visitorId: string; conversationId: string }): Promise<boolean> {
  const removal = await removeLockedConversations(
    s,
    (tx) => tx.$queryRaw<DoomedConversation[]>`
      SELECT id::text, "visitorId"::text AS "visitorId" FROM "Conversation"
      WHERE id = ${q.conversationId}::uuid AND "visitorId" = ${q.visitorId}::uuid FOR UPDATE`,
  );
  return removal.conversationIds.length > 0;
}
