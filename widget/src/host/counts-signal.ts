import { badgeOf, type AttentionCounts } from '../../../api/src/shared/attention.ts';

/** The window event a host page listens to: `detail` is `{ unread, live, inputNeeded }`. */
export const COUNTS_EVENT = 'heed:counts';

let last: AttentionCounts = { unread: 0, live: 0, inputNeeded: 0 };

/** The counts last published (what a badge created late starts from). */
export const latestCounts = (): AttentionCounts => last;

export interface SignalOptions {
  /** prefix the host's document title with the badge count, e.g. "(2) Shop" */
  documentTitle?: boolean;
  /** show the badge count with `navigator.setAppBadge` (installed web apps) */
  appBadge?: boolean;
}

/** The count prefix of the document title, e.g. "(2) "; the conversation title keeps it (`conversation-title.ts`). */
export const TITLE_PREFIX = /^\(\d+\) /;

/**
 * Publishes counts to the host page when they changed: the `heed:counts` event, and the
 * opted-in title prefix and app badge. Returns whether anything changed.
 */
export function publishCounts(counts: AttentionCounts, opts: SignalOptions = {}): boolean {
  if (counts.unread === last.unread && counts.live === last.live && counts.inputNeeded === last.inputNeeded) return false;
  last = { ...counts };
  window.dispatchEvent(new CustomEvent(COUNTS_EVENT, { detail: { ...counts } }));
  const n = badgeOf(counts)?.count ?? 0;
  if (opts.documentTitle) {
    const bare = document.title.replace(TITLE_PREFIX, '');
    document.title = n ? `(${n}) ${bare}` : bare;
  }
  if (opts.appBadge && 'setAppBadge' in navigator) {
    void (n ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(() => {});
  }
  return true;
}
