import { instantMs } from '../../../api/src/shared/attention.ts';
import type { ConversationItem, Me } from '../state/contract.ts';
import { isMine } from './alert-events.ts';

/**
 * THE rule of the tab title's count: whether a conversation needs this operator now. Either
 * - it waits for a person (any conversation of their sites: someone has to take it), or
 * - it is theirs (assigned to them or held by them) and the visitor's last message is unread
 *   by them: newer than the last reply (the assistant's, theirs or a colleague's: a reply after
 *   it means someone dealt with it) and newer than what they had on screen of it in this
 *   browser (`seenVisitorAt`, kept across reloads by seen-marks.ts).
 * A conversation counts once, whichever reasons hold.
 *
 * @example needsMe(item, me, seen.get(item.id)) // true
 */
export function needsMe(item: ConversationItem, me: Pick<Me, 'id'>, seenVisitorAt?: number): boolean {
  if (item.waitingForPerson) return true;
  if (!isMine(item, me) || item.lastVisitorAt == null) return false;
  const wrote = instantMs(item.lastVisitorAt);
  return wrote > instantMs(item.lastAssistantAt) && wrote > (seenVisitorAt ?? Number.NEGATIVE_INFINITY);
}

/** How many of these conversations need the operator now (`needsMe`). */
export function needingCount(
  items: Iterable<ConversationItem>,
  me: Pick<Me, 'id'>,
  seenVisitorAt: (conversationId: string) => number | undefined,
): number {
  let n = 0;
  for (const item of items) if (needsMe(item, me, seenVisitorAt(item.id))) n++;
  return n;
}

/**
 * A document title with the count in front, as mail and chat tabs do, the title's own text kept;
 * none when nothing needs the operator. An earlier count on the title is replaced, not stacked.
 * @example countedTitle('Conversations · Heed console', 2) // '(2) Conversations · Heed console'
 */
export function countedTitle(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\+?\) /, '');
  if (count <= 0) return bare;
  return `(${count > 99 ? '99+' : count}) ${bare}`;
}
