import { instantMs as time } from '../../../api/src/shared/attention.ts';
import type { ConversationView } from './types.ts';

/**
 * Puts a conversation into the list, most recently active first. An older copy (a slow
 * mutation answer racing newer events) never replaces a newer one, and the read marker
 * only moves forward, like on the server.
 */
export function upsertConversation(list: readonly ConversationView[], next: ConversationView): ConversationView[] {
  const old = list.find((c) => c.id === next.id);
  let merged = next;
  if (old) {
    const base = time(next.updatedAt) < time(old.updatedAt) ? old : next;
    const lastReadAt = time(old.lastReadAt) > time(next.lastReadAt) ? old.lastReadAt : next.lastReadAt;
    merged = { ...base, lastReadAt };
  }
  return [merged, ...list.filter((c) => c.id !== next.id)].sort((a, b) => time(b.updatedAt) - time(a.updatedAt) || (a.id < b.id ? -1 : 1));
}
