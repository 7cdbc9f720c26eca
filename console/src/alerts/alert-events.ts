import { instantMs } from '../../../api/src/shared/attention.ts';
import type { ConversationItem, Me } from '../state/contract.ts';

/**
 * What an operator is alerted of:
 * - `waiting`: a visitor waits for a person (the assistant handed the conversation over, nobody took it yet);
 * - `visitor_message`: the visitor wrote in a conversation assigned to or held by this operator.
 */
export type AlertKind = 'waiting' | 'visitor_message';

/** One alert, with what its words need (no message text: a conversation's words never leave the list). */
export interface Alert {
  kind: AlertKind;
  conversationId: string;
  siteName: string;
  /** null for a private conversation (its title is the visitor's words) and for one not titled yet */
  title: string | null;
  private: boolean;
  visitor: ConversationItem['visitor'];
}

/** What a change is judged against, beyond the two versions of the conversation. */
export interface AlertContext {
  me: Pick<Me, 'id'>;
  /** when this console opened (ms): with no earlier version known, only what happened after it alerts */
  openedAt: number;
  /** the newest visitor message (its time, ms) this operator already had on screen in this conversation */
  seenVisitorAt?: number;
  /** the conversation is open on screen now: what it shows needs no alert */
  onScreen?: boolean;
}

/** Whether the conversation is this operator's: assigned to them, or held (taken over) by them. */
export const isMine = (item: Pick<ConversationItem, 'assignee' | 'heldBy'>, me: Pick<Me, 'id'>): boolean =>
  item.assignee?.id === me.id || item.heldBy?.id === me.id;

/**
 * The alert one live change raises, or null. `prev` is the version known before (from the
 * list loaded at start or an earlier change), undefined when none is.
 *
 * - `waiting` when the conversation starts waiting for a person: it did not before, or (no
 *   earlier version known) its wait began after the console opened. Not when this operator
 *   held it just before (they let it go themselves).
 * - else `visitor_message` when it is this operator's and the visitor's last message moved
 *   forward (no earlier version: is newer than the console's opening), and is newer than what
 *   they already saw of it.
 * - Nothing for a conversation open on screen, nor for a change older than the version known
 *   (events can cross a page load), nor for state that was already there when the console opened.
 *
 * Only a visitor moves `lastVisitorAt` and only the assistant starts a wait, so an operator's own
 * actions (taking over, assigning, replying) never alert them.
 *
 * @example alertOf(before, after, { me, openedAt }) // { kind: 'waiting', conversationId: '…', … }
 */
export function alertOf(prev: ConversationItem | undefined, next: ConversationItem, ctx: AlertContext): Alert | null {
  if (ctx.onScreen) return null;
  if (prev && instantMs(prev.updatedAt) > instantMs(next.updatedAt)) return null;
  const startedWaiting =
    next.waitingForPerson && (prev ? !prev.waitingForPerson : next.waitingSince != null && instantMs(next.waitingSince) > ctx.openedAt);
  if (startedWaiting && prev?.heldBy?.id !== ctx.me.id) return alertFor('waiting', next);
  if (!isMine(next, ctx.me) || next.lastVisitorAt == null) return null;
  const wrote = instantMs(next.lastVisitorAt);
  const before = prev ? instantMs(prev.lastVisitorAt) : ctx.openedAt;
  if (wrote > before && wrote > (ctx.seenVisitorAt ?? Number.NEGATIVE_INFINITY)) return alertFor('visitor_message', next);
  return null;
}

function alertFor(kind: AlertKind, item: ConversationItem): Alert {
  return {
    kind,
    conversationId: item.id,
    siteName: item.siteName,
    title: item.private ? null : item.title,
    private: item.private,
    visitor: item.visitor,
  };
}
