import type { ConversationView, ThreadMessage } from './types.ts';

/** The input request a thread is waiting on, as the visitor can act on it. */
export interface OpenQuestion {
  id: string;
  allowFreeText: boolean;
  /** the visitor's answer is on its way: choices wait, the composer sends plain messages */
  answering: boolean;
}

/**
 * Which question of the open thread still waits for the visitor, or null. Pure.
 *
 * The newest message carrying a request decides: it must be `open`, and when the server
 * reports the conversation's open request (`inputRequest`, live through
 * `conversation.updated`) it must be that one — so an answer from another tab closes it
 * here too. A server that does not report it yet leaves the message's status to decide.
 *
 * @example openQuestion(conversation, thread)?.id // the request id to answer
 */
export function openQuestion(
  conversation: ConversationView | undefined,
  thread: readonly ThreadMessage[] | undefined,
): OpenQuestion | null {
  if (!conversation || !thread) return null;
  const request = thread.findLast((m) => m.inputRequest)?.inputRequest;
  if (request?.status !== 'open') return null;
  if (conversation.inputRequest !== undefined && conversation.inputRequest?.id !== request.id) return null;
  return {
    id: request.id,
    allowFreeText: request.allowFreeText,
    answering: thread.some((m) => m.pending && m.answersRequestId === request.id),
  };
}
