import { TITLE_PREFIX } from './counts-signal.ts';

/** The host page as the console's visitor profile shows it. */
export interface WatchedPage {
  url: string;
  title: string;
}

export interface PageWatchOptions {
  /** Sends a page; a rejection (429 with `data.retryAfterMs`, offline…) holds the next try until then, or RETRY_MS. */
  report(page: WatchedPage): Promise<unknown>;
  /** Quiet time after a change before it is reported: an SPA sets its title after it pushed the address. */
  settleMs?: number;
  /** How often the address and title are read when no event said they changed. */
  pollMs?: number;
}

/** What a page watch can be asked. */
export interface PageWatch {
  /** Reports the current page again (the session's visitor changed: the new one has no page yet). */
  reset(): void;
  stop(): void;
}

const SETTLE_MS = 1_000;
const POLL_MS = 2_000;
const RETRY_MS = 30_000;
/** What the API stores (api/src/visitors/page-fields.ts); longer ones are cut here rather than refused there. */
const URL_MAX = 2_000;
const TITLE_MAX = 300;

/** The page now, bounded as the API takes it; null for one that is not on the web (file:, about:). */
function currentPage(): WatchedPage | null {
  const { href, origin, pathname, protocol } = location;
  if (protocol !== 'http:' && protocol !== 'https:') return null;
  // an address past the limit loses its query and fragment, where the length usually is
  const url = href.length <= URL_MAX ? href : `${origin}${pathname}`.slice(0, URL_MAX);
  // the widget's own unread prefix ("(2) ") is not the page's
  const title = document.title
    .replace(TITLE_PREFIX, '')
    .replace(/[\u0000-\u001F\u007F-\u009F\s]+/g, ' ')
    .trim()
    .slice(0, TITLE_MAX);
  return { url, title };
}

const keyOf = (page: WatchedPage) => `${page.url}\n${page.title}`;

/**
 * Reports the host page's address and title on load and whenever either changes, after the
 * change settles (SETTLE_MS: one report for a burst of pushes, with the title the page set
 * after them), never the same page twice in a row.
 *
 * How it notices, without patching anything of the page (no wrapped `history.pushState`,
 * which would fight the page's router and other scripts doing the same): the events a
 * navigation fires (`popstate`, `hashchange`, the Navigation API's `currententrychange`,
 * which also covers `pushState` and `replaceState` where it exists), a look when the tab
 * becomes visible, and a light poll (POLL_MS, two string comparisons) for what fires no event:
 * `pushState` in browsers without the Navigation API, and a title set later. A hidden tab's
 * timers are throttled by the browser, which is what we want.
 * @example const watch = watchPage({ report: (page) => api.reportPage(page) });
 */
export function watchPage(opts: PageWatchOptions): PageWatch {
  const settleMs = opts.settleMs ?? SETTLE_MS;
  let sent: string | null = null;
  /** bumped by `reset`: a report that was under way for the previous visitor does not count as sent */
  let generation = 0;
  let heldUntil = 0;
  let inFlight = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** the page waiting for its quiet time */
  let waiting: string | null = null;

  const check = () => {
    const page = currentPage();
    const key = page && keyOf(page);
    if (!key || key === sent || key === waiting || inFlight) return;
    waiting = key;
    clearTimeout(timer);
    timer = setTimeout(send, Math.max(settleMs, heldUntil - Date.now()));
  };

  const send = () => {
    waiting = null;
    const page = currentPage();
    if (!page || keyOf(page) === sent) return;
    if (Date.now() < heldUntil) return check();
    inFlight = true;
    const of = generation;
    opts
      .report(page)
      .then(
        () => {
          if (of === generation) sent = keyOf(page);
        },
        (err: unknown) => {
          const retryAfterMs = (err as { data?: { retryAfterMs?: unknown } } | null)?.data?.retryAfterMs;
          heldUntil = Date.now() + (typeof retryAfterMs === 'number' && retryAfterMs > 0 ? retryAfterMs : RETRY_MS);
        },
      )
      .finally(() => {
        inFlight = false;
        check();
      });
  };

  const onVisible = () => document.visibilityState === 'visible' && check();
  const navigation = (window as { navigation?: EventTarget }).navigation;
  addEventListener('popstate', check);
  addEventListener('hashchange', check);
  document.addEventListener('visibilitychange', onVisible);
  navigation?.addEventListener('currententrychange', check);
  const poll = setInterval(check, opts.pollMs ?? POLL_MS);
  check();

  return {
    reset() {
      generation++;
      sent = null;
      check();
    },
    stop() {
      clearTimeout(timer);
      clearInterval(poll);
      removeEventListener('popstate', check);
      removeEventListener('hashchange', check);
      document.removeEventListener('visibilitychange', onVisible);
      navigation?.removeEventListener('currententrychange', check);
    },
  };
}
