import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { instantMs } from '../../../api/src/shared/attention.ts';
import type { ConsoleApi } from '../state/console-api.ts';
import type { AlertSettings, ConversationItem, Me } from '../state/contract.ts';
import { type Alert, alertOf } from './alert-events.ts';
import { listenForInteraction, playAlertTone } from './alert-tone.ts';
import { alertWords } from './alert-words.ts';
import { showNotification } from './browser-notification.ts';
import { needingCount } from './needs-me.ts';
import { SeenMarks } from './seen-marks.ts';

/** Pages of waiting conversations read at start (100 each): a queue longer than this is counted as far as read. */
const WAITING_PAGES = 10;
/** The most recently active conversations read at start, for the operator's own unread ones. */
const RECENT = 100;

/**
 * The console's alerts, for as long as an operator is signed in, whatever view is open: it
 * listens to the one live stream of conversation changes, decides per change whether to alert
 * (alert-events.ts), and alerts through the channels the operator chose (a browser
 * notification, a sound) and always through the app's live region (`heed-announce`). It keeps
 * `count`, the conversations that need the operator now (needs-me.ts), for the tab title; the
 * host re-renders when it changes.
 *
 * At start it reads the waiting queue and the recently active conversations: they make the
 * count's present state, and alert only for what happened after the console opened.
 *
 * @example private readonly alerts = new AlertsController(this); … this.alerts.sync(api, me, openId); countedTitle(t, this.alerts.count)
 */
export class AlertsController implements ReactiveController {
  /** conversations needing the signed-in operator now */
  count = 0;
  private api: ConsoleApi | null = null;
  private me: Me | null = null;
  private readonly items = new Map<string, ConversationItem>();
  private seen: SeenMarks | null = null;
  private settings: Pick<AlertSettings, 'notify' | 'sound'> = { notify: true, sound: false };
  private openedAt = 0;
  private onScreenId: string | null = null;
  private unsubscribe: (() => void) | null = null;
  /** bumped at every sign-in and sign-out, so a slow answer for the last operator is dropped */
  private generation = 0;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }

  hostConnected(): void {
    listenForInteraction();
    this.host.addEventListener('heed-alert-settings', this.onSettings);
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  hostDisconnected(): void {
    this.host.removeEventListener('heed-alert-settings', this.onSettings);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.end();
  }

  /**
   * Keeps up with the app (call after each of its updates): the API, who is signed in (none:
   * alerts stop), and the conversation open on screen (null: none).
   */
  sync(api: ConsoleApi, me: Me | null | undefined, openConversationId: string | null): void {
    if ((me?.id ?? null) !== (this.me?.id ?? null) || (me && api !== this.api)) {
      this.end();
      if (me) this.begin(api, me);
    }
    this.onScreenId = openConversationId;
    this.markSeen();
  }

  private begin(api: ConsoleApi, me: Me): void {
    const generation = ++this.generation;
    this.api = api;
    this.me = me;
    this.seen = new SeenMarks(me.id);
    this.openedAt = Date.now();
    this.unsubscribe = api.changes(undefined, {
      onChange: (change) => this.take(change.item),
      // deleted by its visitor, erased or swept: it needs nobody any more
      onRemoved: (conversationId) => {
        if (this.items.delete(conversationId)) this.recount();
      },
      // the views show the stream's state and its failures; a view listening again reopens it, and this with it
      onState: () => {},
      onError: () => {},
    });
    void api.alertSettings().then(
      (s) => generation === this.generation && (this.settings = { notify: s.notify, sound: s.sound }),
      () => {},
    );
    void this.readPresent(generation);
  }

  private end(): void {
    this.generation++;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.api = null;
    this.me = null;
    this.seen = null;
    this.items.clear();
    this.setCount(0);
  }

  /** The waiting queue and the recent conversations, as they are now. */
  private async readPresent(generation: number): Promise<void> {
    const api = this.api!;
    try {
      const recent = api.conversations({ filter: 'all', limit: RECENT });
      const waiting: ConversationItem[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < WAITING_PAGES; page++) {
        const got = await api.conversations({ filter: 'waiting', limit: 100, ...(cursor ? { cursor } : {}) });
        waiting.push(...got.items);
        if (!got.nextCursor) break;
        cursor = got.nextCursor;
      }
      const { items } = await recent;
      if (generation !== this.generation) return;
      for (const item of [...items, ...waiting]) this.take(item);
    } catch {
      // the views say what failed; the count goes on from the live changes
    }
  }

  /** One version of a conversation, from the start's reading or a live change. */
  private take(item: ConversationItem): void {
    const me = this.me;
    const seen = this.seen;
    if (!me || !seen) return;
    const prev = this.items.get(item.id);
    if (prev && instantMs(prev.updatedAt) > instantMs(item.updatedAt)) return;
    const onScreen = this.isOnScreen(item.id);
    const alert = alertOf(prev, item, { me, openedAt: this.openedAt, seenVisitorAt: seen.get(item.id), onScreen });
    this.items.set(item.id, item);
    if (onScreen && item.lastVisitorAt) seen.see(item.id, instantMs(item.lastVisitorAt));
    this.recount();
    if (alert) this.raise(alert);
  }

  private raise(alert: Alert): void {
    this.host.dispatchEvent(new CustomEvent('heed-announce', { detail: { text: alertWords(alert).spoken } }));
    if (this.settings.notify) showNotification(alert);
    if (this.settings.sound) playAlertTone();
  }

  private isOnScreen(conversationId: string): boolean {
    return this.onScreenId === conversationId && document.visibilityState === 'visible';
  }

  /** The open conversation's visitor messages are read once its tab is visible. */
  private markSeen(): void {
    const id = this.onScreenId;
    const item = id ? this.items.get(id) : undefined;
    if (!item?.lastVisitorAt || !this.seen || !this.isOnScreen(item.id)) return;
    if (this.seen.see(item.id, instantMs(item.lastVisitorAt))) this.recount();
  }

  private recount(): void {
    const me = this.me;
    const seen = this.seen;
    this.setCount(me && seen ? needingCount(this.items.values(), me, (id) => seen.get(id)) : 0);
  }

  private setCount(n: number): void {
    if (n === this.count) return;
    this.count = n;
    this.host.requestUpdate();
  }

  private readonly onSettings = (e: Event) => {
    const s = (e as CustomEvent<Pick<AlertSettings, 'notify' | 'sound'>>).detail;
    this.settings = { notify: s.notify, sound: s.sound };
  };

  private readonly onVisibility = () => this.markSeen();
}
