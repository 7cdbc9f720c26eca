import type { Tx } from '../db/types.ts';
import type { DurableEvent } from '../events/event-types.ts';
import { addNotice } from '../conversations/speak-to-visitor.ts';
import { toMessageView } from '../conversations/views.ts';
import { autoAssign } from '../inbox/auto-assign.ts';

/** What the model reads back from `handoff_to_human`, and whether the conversation changed. */
export interface HandoffOutcome {
  changed: boolean;
  result: Record<string, unknown>;
}

/**
 * The effect of the model's `handoff_to_human` call, inside the run's fenced transaction (the
 * caller ran `assertFence`, which also holds the conversation's row lock): the conversation
 * starts waiting for a person (`waitingSince`, the console's `waiting` filter and the top of its
 * queue), and the notice "A person from <site> will reply here" is stored for the visitor.
 * Asking twice changes nothing more; a person who took over meanwhile needs no asking.
 * The tool result tells the model a person was asked and to say so to the visitor briefly;
 * its text reply is stored as usual.
 */
export async function requestHandoff(
  tx: Tx,
  run: { conversationId: string; visitorId: string },
  emit: (visitorId: string, event: DurableEvent) => void,
): Promise<HandoffOutcome> {
  const conv = await tx.conversation.findUniqueOrThrow({
    where: { id: run.conversationId },
    select: { waitingSince: true, heldById: true, site: { select: { name: true } } },
  });
  if (conv.heldById !== null) {
    return { changed: false, result: { ok: true, note: 'A person from the team has already joined this conversation; they reply next.' } };
  }
  const told = `Tell the visitor in one short sentence that a person from ${conv.site.name} will reply in this conversation, and that they can leave this page meanwhile.`;
  if (conv.waitingSince !== null) return { changed: false, result: { ok: true, note: `A person was already asked to join. ${told}` } };
  await tx.conversation.update({ where: { id: run.conversationId }, data: { waitingSince: new Date() }, select: { id: true } });
  await autoAssign(tx, run.conversationId);
  const notice = await addNotice(tx, {
    conversationId: run.conversationId,
    visitorId: run.visitorId,
    provenance: 'handoff_requested',
    provenanceLabel: conv.site.name,
  });
  emit(run.visitorId, { type: 'message.created', conversationId: run.conversationId, message: toMessageView(notice) });
  return { changed: true, result: { ok: true, note: `A person from ${conv.site.name} was asked to join. ${told}` } };
}
