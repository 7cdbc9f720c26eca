import type { HeedStore } from './store.ts';

/**
 * Sends the visitor's answer to "Did this help?" (1 or -1, and the comment when they wrote
 * one) and puts the server's view in the store, so the prompt shows the rating it holds. A
 * refusal (or no network) is rethrown for the prompt to say so; nothing changed locally.
 * Panel-side, as `renameConversation` is.
 *
 * @example await rateConversation(store, conversationId, 1, 'Quick and kind');
 */
export async function rateConversation(store: HeedStore, conversationId: string, rating: 1 | -1, comment?: string): Promise<void> {
  store.put(await store.api.rate(comment === undefined ? { conversationId, rating } : { conversationId, rating, comment }));
}

/**
 * Whether the thread ends with "Did this help?": the team resolved the conversation and a
 * person wrote in it (the rating is of their help, so an assistant-only conversation is not
 * asked). `thread` is the loaded thread (its newest messages).
 */
export function ratingAsked(
  conversation: { status?: 'open' | 'resolved' | 'snoozed' } | undefined,
  thread: readonly { role: string }[] | undefined,
): boolean {
  return conversation?.status === 'resolved' && !!thread?.some((m) => m.role === 'operator');
}
