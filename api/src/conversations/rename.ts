import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from './queries.ts';
import type { ConversationView } from './views.ts';

/** Who renames: a visitor may rename only their own conversations; an operator any of the site's. */
export type Renamer = { visitorId: string } | { operatorSiteId: string };

/**
 * Sets a title the user owns: source `manual` (or `fixed` with `pin`: an operator pinned it)
 * and state `manual`, any request or claim of the title pass dropped. Manual always wins: a pass generating right now finds the row no longer
 * `generating`, its compare-and-set matches nothing, and its answer is only audited.
 * `updatedAt` is not touched (a rename is not activity). Returns null when the conversation
 * is not the renamer's. `title` must already be validated (see `conversationTitle`).
 */
export async function renameConversation(
  s: Pick<Services, 'db' | 'bus'>,
  input: { conversationId: string; title: string; by: Renamer; pin?: boolean },
): Promise<ConversationView | null> {
  const visitorId = 'visitorId' in input.by ? input.by.visitorId : null;
  const siteId = 'operatorSiteId' in input.by ? input.by.operatorSiteId : null;
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const [row] = await tx.$queryRaw<{ visitorId: string }[]>`
      UPDATE "Conversation"
      SET title = ${input.title}, "titleSource" = ${input.pin ? 'fixed' : 'manual'}::"TitleSource", "titleState" = 'manual', "titleRequestedAt" = NULL, "titleLeaseUntil" = NULL
      WHERE id = ${input.conversationId}::uuid
        AND (${visitorId}::uuid IS NULL OR "visitorId" = ${visitorId}::uuid)
        AND (${siteId}::uuid IS NULL OR "siteId" = ${siteId}::uuid)
      RETURNING "visitorId"`;
    if (!row) return null;
    const conversation = await loadConversationView(tx, input.conversationId);
    emit(row.visitorId, { type: 'conversation.updated', conversationId: input.conversationId, conversation });
    return conversation;
  });
}
