import type { Tx } from '../db/types.ts';
import { loadConversationView } from '../conversations/queries.ts';
import type { DurableEvent } from '../events/event-types.ts';

/**
 * The conversation an unsolicited message goes to: the visitor's most recently active one.
 * Call it under the visitor's row lock (`lockVisitor`), so the cap holds against concurrent creates.
 */
export async function latestConversation(tx: Tx, visitorId: string): Promise<string | null> {
  const row = await tx.conversation.findFirst({
    where: { visitorId },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return row?.id ?? null;
}

/** Row lock on the visitor: their creates, fires and server messages serialize here. */
export async function lockVisitor(tx: Tx, visitorId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "Visitor" WHERE id = ${visitorId}::uuid FOR NO KEY UPDATE`;
}

/**
 * Opens a conversation for an unsolicited message (the visitor has none to speak in), or null
 * at the visitor's conversation cap. Emits its `conversation.updated`, as `conversation.create` does.
 */
export async function openConversation(
  tx: Tx,
  emit: (visitorId: string, event: DurableEvent) => void,
  a: { siteId: string; visitorId: string; maxConversations: number },
): Promise<string | null> {
  if ((await tx.conversation.count({ where: { visitorId: a.visitorId } })) >= a.maxConversations) return null;
  const { id } = await tx.conversation.create({ data: { siteId: a.siteId, visitorId: a.visitorId }, select: { id: true } });
  emit(a.visitorId, { type: 'conversation.updated', conversationId: id, conversation: await loadConversationView(tx, id) });
  return id;
}
