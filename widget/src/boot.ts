import './widget/widget.ts';
import './unread-badge/unread-badge.ts';
import { HeedStore } from './state/store.ts';
import { createTrpcApi } from './state/trpc-api.ts';
import { storageKey, tokenStorage } from './state/token-storage.ts';
import { readView, writeView } from './state/view-memory.ts';
import type { HeedCommand } from './host/host-api.ts';
import { wireHost } from './host/wire-host.ts';
import type { HeedWidget } from './widget/widget.component.ts';
import { followBranding } from './widget/branding.ts';
import { takeResumeToken } from './host/resume-link.ts';
import { followPages } from './host/page-reports.ts';

/** What the `<script>` tag (or a `<heed-widget>` element's attributes) configures. */
export interface EmbedConfig {
  site: string;
  /** API base URL ending in `/` (`https://chat.example/`): the script's folder unless `data-api` says otherwise */
  api: string;
  mode?: string;
  position?: string;
  locale?: string;
  documentTitle?: boolean;
  appBadge?: boolean;
  /** CSS selector of the host container for inline mode */
  container?: string;
}

/**
 * The first chunk's work: find or create `<heed-widget>`, start the store (session,
 * conversations, event stream), install `window.Heed` and replay the calls queued before
 * load, and publish the counts to the host page. A reply email's link (`#heed-resume=…`) is
 * taken out of the address first; its visitor's session starts, and its conversation opens
 * (`host/resume-link.ts`). The panel loads on first open; the send
 * queue (`ThreadSync`) loads earlier when storage holds sends an earlier page left unsent.
 */
export function boot(config: EmbedConfig, w: { Heed?: HeedCommand } = window as never): HeedWidget | null {
  if (!config.site) {
    console.error('[heed] the script tag needs data-site="YOUR_SITE_KEY"');
    return null;
  }
  const outboxKey = storageKey('outbox', config.site, config.api);
  // first: a reply email's token leaves the address before anything reads or reports it
  const resumeToken = takeResumeToken();
  const store = new HeedStore({
    api: createTrpcApi(config.api),
    siteKey: config.site,
    tokens: tokenStorage(config.api),
    outboxKey,
    contactKey: storageKey('contact', config.site, config.api),
    resumeToken,
    // the link's conversation opens once the resumed visitor's conversations are in
    onResumed: (conversationId) => void widget.openConversation(conversationId),
  });
  const positionFixed = !!(config.position || document.querySelector('heed-widget')?.hasAttribute('position'));
  const widget = mount(config);
  widget.store = store;
  followBranding(store, widget, { key: storageKey('brand', config.site, config.api), positionFixed });
  followPages(store);

  wireHost({ store, widget, signals: { documentTitle: config.documentTitle, appBadge: config.appBadge }, w });
  void store.start();
  try {
    // sends an earlier page left unacknowledged go out even if the panel never opens here
    if (localStorage.getItem(outboxKey)) void import('./state/thread-sync.ts').then((m) => new m.ThreadSync(store));
  } catch {
    // storage unavailable: nothing was kept
  }
  resumeView(widget, storageKey('view', config.site, config.api));
  return widget;
}

/**
 * Reopens the panel and thread the visitor had before a reload, and remembers changes: the
 * thread open, or that the visitor went home on purpose (the Home button opens no thread).
 */
function resumeView(widget: HeedWidget, key: string) {
  const view = readView(key);
  widget.addEventListener('heed-opened', () => writeView(key, { open: true }));
  widget.addEventListener('heed-closed', () => writeView(key, { open: false }));
  widget.addEventListener('heed-thread-opened', (e) => {
    const { conversationId } = (e as CustomEvent<{ conversationId: string | null }>).detail;
    writeView(key, { conversationId, home: conversationId === null });
  });
  widget.resumeConversationId = view.conversationId;
  widget.resumeHome = view.home;
  if (view.open && widget.mode !== 'inline') void widget.show();
}

function mount(config: EmbedConfig): HeedWidget {
  const existing = document.querySelector('heed-widget');
  const container = config.container ? document.querySelector(config.container) : null;
  const widget = existing ?? document.createElement('heed-widget');
  if (config.mode === 'inline' || config.mode === 'launcher') widget.mode = config.mode;
  if (config.position === 'bottom-left' || config.position === 'bottom-right') widget.position = config.position;
  if (config.locale) widget.locale = config.locale;
  if (!existing) (container ?? document.body).append(widget);
  return widget;
}
