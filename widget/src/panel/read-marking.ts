import { isUnread } from '../../../api/src/shared/attention.ts';
import type { ConversationView, ThreadMessage } from '../state/types.ts';

export interface ReadContext {
  /** the open thread's conversation, if a thread is open */
  conversation: ConversationView | undefined;
  /** the messages the thread displays */
  thread: readonly ThreadMessage[] | undefined;
  panelOpen: boolean;
  visible: boolean;
}

/**
 * The `lastAssistantAt` to mark read, or null. Only what the visitor can see counts: the
 * thread is open, the panel is open, the page is visible, and the reply is on screen —
 * the stamp sent is the newest reply *displayed*, never "now", so a reply that arrives
 * while the mark travels stays unread. An operator's message counts as a reply (the server
 * moves `lastAssistantAt` for it, through the same write); a notice never does.
 */
export function readMarkDue({ conversation, thread, panelOpen, visible }: ReadContext): string | null {
  if (!conversation || !thread || !panelOpen || !visible) return null;
  let shown: string | null = null;
  for (const m of thread)
    if ((m.role === 'assistant' || m.role === 'operator') && m.seq && (!shown || Date.parse(m.createdAt) > Date.parse(shown)))
      shown = m.createdAt;
  if (!shown || !isUnread({ lastAssistantAt: shown, lastReadAt: conversation.lastReadAt })) return null;
  return shown;
}
