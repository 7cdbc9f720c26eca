import type { HeedStore } from './store.ts';

/**
 * Marks a conversation private (or not) for the visitor. The heading shows the new state at
 * once; the server's view then replaces it (its `conversation.updated` event says the same).
 * If the server refuses, the old state comes back and the error is rethrown. Panel-side, as
 * `renameConversation` is: the first chunk has no room to spare.
 *
 * @example await setConversationPrivate(store, conversationId, true);
 */
export async function setConversationPrivate(store: HeedStore, conversationId: string, value: boolean): Promise<void> {
  const before = store.conversation(conversationId);
  if (before) store.put({ ...before, private: value });
  try {
    store.put(await store.api.setPrivate(conversationId, value));
  } catch (err) {
    const now = store.conversation(conversationId);
    // only undo our own change: a newer view that says otherwise stays
    if (before && now && !!now.private === value) store.put({ ...now, private: !!before.private });
    throw err;
  }
}
