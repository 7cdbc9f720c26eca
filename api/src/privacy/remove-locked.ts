import { transactWithEvents } from '../events/append-events.ts';
import type { Tx } from '../db/types.ts';
import type { Services } from '../services.ts';
import { announceRemoval, deleteRemovedFiles } from './after-removal.ts';
import { removeConversations, type DoomedConversation, type Removal } from './remove-conversations.ts';

/**
 * One removal of conversations that their visitors' tabs hear of: `lock` selects and locks them
 * (`FOR UPDATE`) in the transaction; they go with everything they left behind, their bytes
 * before the commit, and each visitor's log gets a content-free `conversation.deleted`; after
 * the commit, Redis and the console are told. The visitor's own delete and the retention sweep.
 * @example await removeLockedConversations(s, (tx) => tx.$queryRaw`SELECT id, "visitorId" … FOR UPDATE`);
 */
export async function removeLockedConversations(
  s: Pick<Services, 'db' | 'bus' | 'redis' | 'keys' | 'files' | 'logger'>,
  lock: (tx: Tx) => Promise<DoomedConversation[]>,
  opts: { count?: boolean } = {},
): Promise<Removal> {
  const removal = await transactWithEvents(s.db, s.bus, async (tx, emit) => {
    const doomed = await lock(tx);
    const removed = await removeConversations(tx, doomed, opts);
    await deleteRemovedFiles(s, removed);
    for (const c of doomed) emit(c.visitorId, { type: 'conversation.deleted', conversationId: c.id });
    return removed;
  });
  if (removal.conversationIds.length > 0) await announceRemoval(s, removal);
  return removal;
}
