/**
 * The console list's filters, by the names its URL and its API use (the rules are the server's,
 * api/src/console/conversations/list-filter.ts, and the live list's, console/src/state/conversation-feed.ts).
 */
export const LIST_FILTERS = [
  'all',
  'live',
  'input_needed',
  'failed',
  'unread',
  'waiting',
  'mine',
  'unassigned',
  'snoozed',
  'resolved',
] as const;

export type ListFilter = (typeof LIST_FILTERS)[number];
