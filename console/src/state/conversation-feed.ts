import type { ConversationFilter, ConversationItem } from './contract.ts';

const ms = (t: string | Date) => new Date(t).getTime();

/** Newest activity first, ties by id descending: the server's list order. */
export function byActivity(a: ConversationItem, b: ConversationItem): number {
  return ms(b.updatedAt) - ms(a.updatedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * Whether a conversation belongs in a list with this filter (search is the server's to judge),
 * the same rules as the server's list (api/src/console/conversations/list-filter.ts); `meId`
 * is the signed-in operator, for "Mine".
 */
export function matchesFilter(item: ConversationItem, filter: ConversationFilter, meId?: string): boolean {
  const open = item.status === 'open';
  switch (filter) {
    case 'all':
      return true;
    case 'live':
      return item.attention === 'live';
    case 'input_needed':
      return item.attention === 'input_needed';
    case 'failed':
      return item.failed;
    case 'unread':
      return item.attention === 'unviewed';
    case 'waiting':
      return item.waitingForPerson;
    case 'mine':
      return open && meId !== undefined && item.assignee?.id === meId;
    case 'unassigned':
      return open && item.waitingSince != null && item.assignee === null;
    case 'snoozed':
      return item.status === 'snoozed';
    case 'resolved':
      return item.status === 'resolved';
  }
}

export interface FeedScope {
  filter: ConversationFilter;
  siteId?: string;
  /** the signed-in operator, for "Mine" */
  meId?: string;
  /** with a search, only rows already shown are updated: whether a new one matches is the server's call */
  search?: string;
}

/**
 * The list after one live change: the changed row replaced (or added, when new and in
 * scope), dropped when it no longer matches the filter, and the list kept in activity
 * order, so a conversation with new activity moves to the top (the waiting filter keeps
 * its wait order instead: `applyWaitingChange`). An older change than the row
 * shown (events can cross a page load) is ignored.
 *
 * @example items = applyChange(items, change.item, { filter: 'all' });
 */
export function applyChange(items: readonly ConversationItem[], item: ConversationItem, scope: FeedScope): ConversationItem[] {
  const i = items.findIndex((c) => c.id === item.id);
  const shown = i >= 0 ? items[i]! : null;
  if (shown && ms(shown.updatedAt) > ms(item.updatedAt)) return [...items];
  // the waiting list is in wait order, not activity order
  if (scope.filter === 'waiting' && (shown || !scope.search)) return applyWaitingChange(items, item, scope.siteId);
  const rest = items.filter((c) => c.id !== item.id);
  const inScope = (!scope.siteId || item.siteId === scope.siteId) && matchesFilter(item, scope.filter, scope.meId);
  if (!inScope || (!shown && scope.search)) return rest;
  return [...rest, item].sort(byActivity);
}

/**
 * The "waiting for a person" queue after one live change: oldest wait first is the server's
 * order, and rows carry no wait time, so a row still waiting keeps its place, a newly waiting
 * one joins at the end (the newest wait), and one taken over or handed back leaves.
 *
 * @example waiting = applyWaitingChange(waiting, change.item, siteId);
 */
export function applyWaitingChange(items: readonly ConversationItem[], item: ConversationItem, siteId?: string): ConversationItem[] {
  const i = items.findIndex((c) => c.id === item.id);
  const shown = i >= 0 ? items[i]! : null;
  if (shown && ms(shown.updatedAt) > ms(item.updatedAt)) return [...items];
  const waits = item.waitingForPerson && (!siteId || item.siteId === siteId);
  if (!waits) return items.filter((c) => c.id !== item.id);
  if (shown) return items.map((c) => (c.id === item.id ? item : c));
  return [...items, item];
}
