import type { ConversationView } from '../../../widget/src/state/types.ts';
import type { ConversationItem } from './contract.ts';

const iso = (t: string | Date | null) => (t == null ? null : new Date(t).toISOString());

/**
 * The widget's conversation row computes its state with the shared attention rule from a
 * visitor's view of a conversation; the console's rows carry the state already decided for
 * the operator (their own read marker). This builds the row a view whose facts give exactly
 * that state, so the console shows the four states with the widget's very visuals (one
 * element, one stylesheet) rather than a second drawing of them.
 *
 * @example html`<heed-conversation-row .conversation=${rowViewOf(item)}>`
 */
export function rowViewOf(item: ConversationItem): ConversationView {
  const updatedAt = iso(item.updatedAt)!;
  const replyAt = iso(item.lastAssistantAt) ?? updatedAt;
  const state = item.attention;
  return {
    id: item.id,
    // a private conversation has no title to show (the server withholds its words)
    title: item.private ? 'Private conversation' : item.title,
    titleSource: item.titleSource as ConversationView['titleSource'],
    excerpt: item.private ? null : item.excerpt,
    createdAt: iso(item.createdAt)!,
    updatedAt,
    live: state === 'live',
    liveRunId: null,
    // an open question this operator has not seen: newer than their (absent) read marker
    inputNeeded: state === 'input_needed',
    inputRequest:
      state === 'input_needed' ? { id: `${item.id}-question`, question: '', choices: [], allowFreeText: true, createdAt: replyAt } : null,
    openTodos: [],
    failed: item.failed,
    // unviewed: a reply newer than the read marker; otherwise the marker is at the reply
    lastAssistantAt: state === 'unviewed' ? replyAt : iso(item.lastAssistantAt),
    lastReadAt: state === 'unviewed' || state === 'input_needed' ? null : iso(item.lastAssistantAt),
    unread: state === 'unviewed',
    attention: state,
    waitingForPerson: state === 'waiting',
    heldBy: item.heldBy?.name ?? null,
    private: item.private,
  };
}
