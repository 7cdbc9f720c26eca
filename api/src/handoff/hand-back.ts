import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { addNotice } from '../conversations/speak-to-visitor.ts';
import { toMessageView } from '../conversations/views.ts';
import type { SiteScope } from '../operators/site-access.ts';
import { refuse } from '../errors/refusal.ts';
import { lockConversation } from './held-conversation.ts';
import type { ActingOperator } from './take-over.ts';

/**
 * Returns a held conversation to the assistant: the hold is cleared, a notice naming who did it
 * is stored ("Ana left" when the holder hands back; "Olga handed the conversation back to the
 * assistant" when an owner does it for them: provenance `handed_back`), and the workers are woken so the visitor messages the
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
    // the notice credits who did it: the holder left, or an owner handed it back for them
    const own = holderId === q.operator.id;
    const notice = await addNotice(tx, {
      conversationId: conv.id,
      visitorId: conv.visitorId,
      provenance: own ? 'operator_left' : 'handed_back',
      provenanceLabel: q.operator.name,
      operatorId: q.operator.id,
    });
    emit(conv.visitorId, { type: 'message.created', conversationId: conv.id, message: toMessageView(notice) });
    emit(conv.visitorId, { type: 'conversation.updated', conversationId: conv.id, conversation: await loadConversationView(tx, conv.id) });
    return true;
  });
  // committed: a lost wake-up only delays the batch to the workers' next poll
  if (released) await s.redis.publish(s.keys.scheduleChannel(), q.conversationId).catch(() => undefined);
}
