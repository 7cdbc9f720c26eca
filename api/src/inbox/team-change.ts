import type { Services } from '../services.ts';
import type { Tx } from '../db/types.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';

/**
 * Runs a change of the team's side of a conversation (assignment, status) in one transaction
 * and records it as the conversation's `conversation.updated` event, so every console's live
 * list re-reads it, and a console that reconnects later still learns of it from the log. The
 * visitor's view carries only what the visitor may see (the status, for the rating prompt).
 * `change` returns the conversation's visitor id, or null when it changed nothing (not found).
 */
export async function teamChange(
  s: Pick<Services, 'db' | 'bus'>,
  conversationId: string,
  change: (tx: Tx) => Promise<string | null>,
): Promise<boolean> {
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const visitorId = await change(tx);
    if (visitorId === null) return false;
    const conversation = await loadConversationView(tx, conversationId);
    emit(visitorId, { type: 'conversation.updated', conversationId, conversation });
    return true;
  });
}
