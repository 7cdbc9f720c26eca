import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { addNotice } from '../conversations/speak-to-visitor.ts';
import { toMessageView } from '../conversations/views.ts';
import type { SiteScope } from '../operators/site-access.ts';
import { refuse } from '../errors/refusal.ts';
import { lockConversation, operatorName } from './held-conversation.ts';

/** The operator acting in the console. */
export interface ActingOperator {
  id: string;
  name: string;
  role: 'owner' | 'agent';
}

/**
 * An operator takes the conversation over: from the commit on, no run is claimed for it (the
 * hold is a column that `claimBatch` and `dueBatches` test, so every worker and every restart
 * respects it) and the visitor's new messages wait for the operator. In ONE transaction: the
 * compare-and-set hold (free → this operator), `waitingSince` cleared (a person is here), the
 * conversation assigned to them unless it was someone's already, the
 * notice "Ana joined" and its events for the visitor.
 *
 * A run already streaming FINISHES: cancelling it would make a half-written reply vanish
 * mid-sentence on the visitor's screen and leave its claimed messages answered by nobody; the
 * operator watches it finish and writes after it. The hold stops the NEXT claim, not this run.
 *
 * Idempotent for the holder (no second notice). Refused: another operator holds it (CONFLICT
 * `held_by_other`, naming them), or it is private (FORBIDDEN `private`: the console cannot
 * show its words, so nobody could answer them knowingly). NOT_FOUND outside the operator's sites.
 */
export async function takeOver(
  s: Pick<Services, 'db' | 'bus'>,
  q: { operator: ActingOperator; conversationId: string; sites: SiteScope },
): Promise<void> {
  await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const conv = await lockConversation(tx, q);
    if (conv.private) {
      throw refuse(
        'forbidden',
        'private',
        'The visitor marked this conversation private: the console cannot show its words, so it cannot be taken over.',
      );
    }
    const taken = await tx.$executeRaw`
      UPDATE "Conversation" SET "heldById" = ${q.operator.id}::uuid, "heldAt" = now(), "waitingSince" = NULL,
        -- whoever takes an unassigned conversation over is the one it belongs to
        "assignedAt" = CASE WHEN "assigneeId" IS NULL THEN now() ELSE "assignedAt" END,
        "assigneeId" = coalesce("assigneeId", ${q.operator.id}::uuid)
      WHERE id = ${conv.id}::uuid AND "heldById" IS NULL`;
    if (taken === 0) {
      if (conv.heldById === q.operator.id) return;
      const holder = await operatorName(tx, conv.heldById!);
      throw refuse('conflict', 'held_by_other', `${holder} has already taken this conversation over.`);
    }
    const notice = await addNotice(tx, {
      conversationId: conv.id,
      visitorId: conv.visitorId,
      provenance: 'operator_joined',
      provenanceLabel: q.operator.name,
      operatorId: q.operator.id,
    });
    emit(conv.visitorId, { type: 'message.created', conversationId: conv.id, message: toMessageView(notice) });
    emit(conv.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
  });
}
