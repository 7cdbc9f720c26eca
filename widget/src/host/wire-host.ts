import type { HeedStore } from '../state/store.ts';
import type { Identity } from '../state/heed-api.ts';
import type { HeedWidget } from '../widget/widget.component.ts';
import { createHostApi, type HeedCommand } from './host-api.ts';
import { publishCounts, type SignalOptions } from './counts-signal.ts';
import { ReplyPreviews } from './reply-preview.ts';

/**
 * Connects a store and a widget to the host page: keeps the launcher badge, the
 * `heed:counts` event, 'unread' listeners, the title prefix and the app badge on the same
 * counts; previews a reply that arrives while the chat is closed beside the launcher; installs `window.Heed` and replays the calls queued before load; and warns
 * before unload only while a send is unacknowledged (replies survive a refresh).
 */
export function wireHost(opts: { store: HeedStore; widget: HeedWidget; signals?: SignalOptions; w?: { Heed?: HeedCommand } }): HeedCommand {
  const { store, widget } = opts;
  const w = opts.w ?? (window as { Heed?: HeedCommand });
  const queued = w.Heed?.q ?? [];
  const { command, notifyCounts } = createHostApi({
    widget,
    store,
    identify: (identity) => {
      const i = identity as Identity | null;
      if (i && typeof i.userId === 'string' && (typeof i.token === 'string' || typeof i.userHash === 'string')) store.identify(i);
      else console.error('[heed] identify needs { userId, token } (a JWT your backend signed) or { userId, userHash }');
    },
  });
  w.Heed = command;
  const previews = new ReplyPreviews();
  const update = () => {
    const counts = store.counts;
    widget.counts = counts;
    const preview = previews.next(store.state.conversations, store.state.ready);
    if (preview && !widget.open && widget.mode === 'launcher') widget.preview = preview;
    if (publishCounts(counts, opts.signals)) notifyCounts(counts);
  };
  store.subscribe(update);
  update();
  // only sends storage could not keep (ThreadSync keeps the rest for the next page)
  addEventListener('beforeunload', (e) => store.unsent() && e.preventDefault());
  for (const args of Array.from(queued)) command(...(Array.from(args) as [string, ...unknown[]]));
  return command;
}
