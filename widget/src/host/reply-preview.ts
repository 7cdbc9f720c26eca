import { isUnread } from '../../../api/src/shared/attention.ts';
import type { ConversationView } from '../state/types.ts';

/** A reply to show beside the closed launcher: its conversation and its first words. */
export interface ReplyPreview {
  conversationId: string;
  /** the conversation's excerpt: the reply's first line, bounded by the server */
  text: string;
  /** the reply's time (`lastAssistantAt`) */
  at: string;
}

/**
 * Finds the reply to preview beside the closed launcher: one that arrived while this page was
 * open (replies already there when the list first loaded are not news), once per reply, unread,
 * and not a failure. Only what the assistant or a person of the site's team said moves
 * `lastAssistantAt`, so the visitor's own messages never show here.
 *
 * @example const previews = new ReplyPreviews(); previews.next(state.conversations, state.ready) // a preview or null
 */
export class ReplyPreviews {
  /** each conversation's `lastAssistantAt` at the last look */
  private readonly seen = new Map<string, string | null>();
  private primed = false;

  /** The newest reply that arrived since the last look, or null; each reply is answered once. */
  next(conversations: readonly ConversationView[], ready: boolean): ReplyPreview | null {
    if (!ready) return null;
    let newest: ReplyPreview | null = null;
    for (const c of conversations) {
      const before = this.seen.get(c.id);
      this.seen.set(c.id, c.lastAssistantAt);
      const arrived = this.primed && c.lastAssistantAt !== null && (before == null || c.lastAssistantAt > before);
      if (!arrived || !isUnread(c) || c.failed || !c.excerpt) continue;
      if (!newest || c.lastAssistantAt! > newest.at) newest = { conversationId: c.id, text: c.excerpt, at: c.lastAssistantAt! };
    }
    this.primed = true;
    return newest;
  }
}
