import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { addNotice } from '../conversations/speak-to-visitor.ts';
import { toMessageView } from '../conversations/views.ts';
import type { SiteScope } from '../operators/site-access.ts';
import { refuse } from '../errors/refusal.ts';
import { lockConversation, operatorName } from './held-conversation.ts';
import type { ActingOperator } from './take-over.ts';

/**
 * Returns a held conversation to the assistant: the hold is cleared, the notice "Ana left"
 * (the holder's name) is stored, and the workers are woken so the visitor messages the
 * operator did not answer are claimed right away as the next pending batch (they are older
 * than the debounce, so due at once). That run's context holds the operator's messages as
 * assistant-side history labelled as theirs (build-context.ts), so the model neither repeats
 * nor contradicts them.
 *
 * The holder may hand back, and so may an owner (an agent who left for the day); anyone else
 * is refused CONFLICT `not_holding`. A conversation nobody holds is left as it is (a repeated
 * click, idempotent). NOT_FOUND outside the operator's sites.
 */
export async function handBack(
  s: Pick<Services, 'db' | 'bus' | 'redis' | 'keys'>,
  q: { operator: ActingOperator; conversationId: string; sites: SiteScope },
): Promise<void> {
  const released = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const conv = await lockConversation(tx, q);
    if (conv.heldById === null) return false;
    if (conv.heldById !== q.operator.id && q.operator.role !== 'owner') {
      throw refuse('conflict', 'not_holding', 'Only the operator who took this conversation over (or an owner) can hand it back.');
    }
    const holderId = conv.heldById;
    await tx.$executeRaw`
      UPDATE "Conversation" SET "heldById" = NULL, "heldAt" = NULL
      WHERE id = ${conv.id}::uuid AND "heldById" = ${holderId}::uuid`;
    const name = holderId === q.operator.id ? q.operator.name : await operatorName(tx, holderId);
    const notice = await addNotice(tx, {
      conversationId: conv.id,
      visitorId: conv.visitorId,
      provenance: 'operator_left',
      provenanceLabel: name,
      operatorId: holderId,
    });
    emit(conv.visitorId, { type: 'message.created', conversationId: conv.id, message: toMessageView(notice) });
    emit(conv.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
    return true;
  });
  // committed: a lost wake-up only delays the batch to the workers' next poll
  if (released) await s.redis.publish(s.keys.scheduleChannel(), q.conversationId).catch(() => undefined);
}
