import type { HeedStore } from './store.ts';

/**
 * Renames a conversation for the visitor. The new title shows at once in the heading and
 * the sidebar; the server's view then replaces it (its `conversation.updated` event says
 * the same). If the server refuses, the old title comes back and the error is rethrown.
 * Panel-side on purpose: the first chunk has no room to spare.
 *
 * @example await renameConversation(store, conversationId, 'Shipping to Norway');
 */
export async function renameConversation(store: HeedStore, conversationId: string, title: string): Promise<void> {
  const before = store.conversation(conversationId);
  if (before) store.put({ ...before, title, titleSource: 'manual' });
  try {
    store.put(await store.api.rename(conversationId, title));
  } catch (err) {
    const now = store.conversation(conversationId);
    if (before && now?.title === title) store.put({ ...now, title: before.title, titleSource: before.titleSource });
    throw err;
  }
}
