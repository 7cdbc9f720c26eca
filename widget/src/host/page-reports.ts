import type { HeedStore } from '../state/store.ts';
import type { PageWatch } from './page-watch.ts';

/**
 * Reports the host page to the console's visitor profile, only for a site whose owner turned
 * on sharing visitor pages (`site.shareVisitorPages` in the session's answer). The watcher is
 * its own chunk, loaded only then, so the first chunk of every other site pays a few bytes.
 * A new visitor (after `Heed('identify', …)`) gets the page reported again; a session that
 * says sharing is off stops it.
 */
export function followPages(store: HeedStore): void {
  let watch: Promise<PageWatch> | null = null;
  let visitor: string | null = null;
  store.subscribe(({ site, visitorId }) => {
    if (!site || !visitorId) return;
    if (!site.shareVisitorPages) {
      void watch?.then((w) => w.stop());
      watch = null;
      visitor = null;
      return;
    }
    if (visitorId === visitor) return;
    const first = !watch;
    visitor = visitorId;
    watch ??= import('./page-watch.ts').then((m) => m.watchPage({ report: (page) => store.api.reportPage(page) }));
    if (!first) void watch.then((w) => w.reset());
  });
}
