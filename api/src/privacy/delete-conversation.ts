import { transactWithEvents } from '../events/append-events.ts';
import type { Services } from '../services.ts';
import { announceRemoval, deleteRemovedFiles } from './after-removal.ts';
import { removeConversations } from './remove-conversations.ts';

/**
 * A visitor deletes one of their own conversations for good: it goes with everything it left
 * behind (removeConversations), its files' bytes included, and a content-free
 * `conversation.deleted` event tells the visitor's other tabs; the console's live lists drop it
 * (their re-read of the conversation finds nothing). False when it is not theirs or already gone.
 * @example if (!(await deleteOwnConversation(services, { visitorId, conversationId }))) throw notFound('conversation');
 */
export async function deleteOwnConversation(s: Services, q: { visitorId: string; conversationId: string }): Promise<boolean> {
  const removal = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const mine = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM "Conversation" WHERE id = ${q.conversationId}::uuid AND "visitorId" = ${q.visitorId}::uuid FOR UPDATE`;
    if (mine.length === 0) return null;
    const removed = await removeConversations(tx, [q.conversationId]);
    await deleteRemovedFiles(s, removed);
    emit(q.visitorId, { type: 'conversation.deleted', conversationId: q.conversationId });
    return removed;
  });
  if (!removal) return false;
  await announceRemoval(s, removal);
  return true;
}
