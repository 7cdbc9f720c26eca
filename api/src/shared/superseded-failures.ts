/**
 * The one rule for "this failed reply no longer matters": the widget hides such a reply and
 * the console marks it, so neither shows a Retry that has nothing left to retry.
 *
 * A failed reply's batch goes back to the outbox on Retry, and the next run also claims any
 * batch that failed before it (claim-batch.ts). So once a later reply in the same
 * conversation answered the visitor, it answered the failed batch too: the same batch after
 * a retry, or a later one that included it.
 */

/** What the rule reads of a message; every transcript the widget or the console holds has these. */
export interface SupersedableMessage {
  id: string;
  role: string;
  /** set on a failed reply */
  error: string | null;
  /** why an unsolicited message appeared; null on a reply to the visitor's words */
  provenance?: string | null;
}

/** A reply of the assistant to the visitor's words (not an unsolicited message). */
const isReplyToVisitor = (m: SupersedableMessage) => m.role === 'assistant' && (m.provenance ?? null) === null;

/**
 * Ids of the failed replies that a later successful reply superseded, for messages in
 * conversation order (oldest first, as stored).
 * @example supersededFailures([failedReply, answer]) // Set { failedReply.id }
 */
export function supersededFailures(messages: readonly SupersedableMessage[]): Set<string> {
  const superseded = new Set<string>();
  let answeredLater = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (!isReplyToVisitor(m)) continue;
    if (m.error === null) answeredLater = true;
    else if (answeredLater) superseded.add(m.id);
  }
  return superseded;
}

/** Whether one failed reply is superseded within its conversation's messages (see `supersededFailures`). */
export function isSupersededFailure(message: SupersedableMessage, messages: readonly SupersedableMessage[]): boolean {
  return message.error !== null && supersededFailures(messages).has(message.id);
}
