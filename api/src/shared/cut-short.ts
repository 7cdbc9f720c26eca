/**
 * The one rule for "this reply may be continued": the model stopped it at its token cap
 * (`cutShort`), it did not fail, and nothing followed it yet: no later message from anyone,
 * the visitor's request for the rest included. The widget shows "Continue" on that reply only;
 * `message.continue` accepts that reply only. Notices (lines about the conversation) do not count.
 */

/** What the rule reads of a message; every transcript the widget or the server holds has these. */
export interface ContinuableMessage {
  id: string;
  role: string;
  cutShort: boolean;
  error: string | null;
}

/**
 * The id of the reply the visitor may ask to continue, for messages in conversation order
 * (oldest first), or null.
 * @example continuableReply([question, cutReply]) // cutReply.id
 */
export function continuableReply(messages: readonly ContinuableMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'notice') continue;
    return m.role === 'assistant' && m.cutShort && m.error === null ? m.id : null;
  }
  return null;
}
