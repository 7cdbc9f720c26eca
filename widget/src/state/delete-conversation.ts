import type { HeedStore } from './store.ts';

/** The server's answer when the conversation is not the visitor's, or not there any more. */
const notFound = (err: unknown) => (err as { data?: { code?: unknown } } | null)?.data?.code === 'NOT_FOUND';

/**
 * Deletes the visitor's conversation for good. Once the server has done it (or says it is
 * already gone: another tab deleted it first), this tab drops it as its other tabs do on the
 * server's `conversation.deleted` event: from the list and the counts, with its thread and its
 * queued sends. If the server refuses, nothing changes here and the error is rethrown.
 * Panel-side, as `renameConversation` is: the first chunk has no room to spare.
 *
 * @example await deleteConversation(store, conversationId);
 */
export async function deleteConversation(store: HeedStore, conversationId: string): Promise<void> {
  try {
    await store.api.deleteConversation(conversationId);
  } catch (err) {
    if (!notFound(err)) throw err;
  }
  store.apply({ type: 'conversation.deleted', conversationId });
}
