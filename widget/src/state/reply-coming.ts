import type { ConnectionStatus, ConversationView, StreamingReply, ThreadMessage } from './types.ts';

/**
 * Whether the thread should show that a reply is coming (the typing row) before any of it
 * streams: from the moment the visitor sends, through the debounce and the claim, until the
 * run's reply takes its place. Pure.
 *
 * A reply is coming when the server says the conversation is live, or when one of the
 * visitor's sends is on its way (not held back by a wait the server asked for, not refused).
 * Not while a person holds the conversation (they answer, not the assistant), not while the
 * page is offline or may not chat, and not once the reply itself streams (it shows instead).
 *
 * @example replyComing(conversation, thread, undefined, 'connected') // true right after a send
 */
export function replyComing(
  conversation: ConversationView | undefined,
  thread: readonly ThreadMessage[] | undefined,
  reply: StreamingReply | undefined,
  connection: ConnectionStatus,
): boolean {
  if (reply || conversation?.heldBy || connection === 'offline' || connection === 'unavailable') return false;
  if (conversation?.live) return true;
  return (thread ?? []).some((m) => m.role === 'user' && m.pending && !m.retryAt && !m.sendError);
}
