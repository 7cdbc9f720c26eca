import type { Messages } from '../i18n/en.ts';
import type { ConversationView } from '../state/types.ts';

/**
 * The heading's provenance label for the open conversation: "Private" when the visitor marked
 * it so, then who answers when it is not the assistant ("Operator — Ana" while an operator
 * holds it, "Waiting for a person" after a handoff), else the label of the latest message
 * (`latest`, e.g. "Check-in"); joined with " · ". Null when there is nothing to say. Pure:
 * `strings` is the current `t`.
 *
 * @example headingLabel({ private: true, heldBy: 'Ana' }, null, t) // 'Private · Operator — Ana'
 */
export function headingLabel(
  conversation: Pick<ConversationView, 'private' | 'heldBy' | 'waitingForPerson'> | undefined,
  latest: string | null,
  strings: Messages,
): string | null {
  if (!conversation) return null;
  const who = conversation.heldBy
    ? strings.operatorNamed(conversation.heldBy)
    : conversation.waitingForPerson
      ? strings.waitingForPerson
      : latest;
  const parts = [conversation.private ? strings.private : null, who].filter((p): p is string => !!p);
  return parts.length ? parts.join(' · ') : null;
}
