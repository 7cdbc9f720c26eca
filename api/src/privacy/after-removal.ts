import { deleteStoredFiles } from '../attachments/sweep-unsent.ts';
import type { Services } from '../services.ts';
import type { Removal } from './remove-conversations.ts';

/**
 * Deletes a removal's bytes from the file store, inside the removing transaction (before its
 * commit): a store that cannot delete them fails the removal, which then changes nothing and
 * can be asked again, instead of leaving a visitor's files behind rows that say they are gone.
 */
export async function deleteRemovedFiles(s: Pick<Services, 'files' | 'logger'>, removal: Removal): Promise<void> {
  if (!(await deleteStoredFiles(s.files, removal.storeKeys, s.logger))) throw new Error('the file store did not delete the files');
}

/**
 * After a removal committed: the text of replies still kept in Redis for reconnecting clients
 * goes, and the console's live lists drop the conversations (their re-read finds nothing).
 * Best effort: Redis keys expire on their own within minutes, and a console reloads its list.
 */
export async function announceRemoval(s: Pick<Services, 'redis' | 'keys' | 'bus' | 'logger'>, removal: Removal): Promise<void> {
  try {
    if (removal.runIds.length > 0) await s.redis.del(removal.runIds.map((id) => s.keys.replyText(id)));
    await s.bus.touchConversations(removal.conversationIds);
  } catch (err) {
    s.logger.warn({ err, conversations: removal.conversationIds.length }, 'removal: could not tell Redis');
  }
}
