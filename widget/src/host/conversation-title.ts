import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { TITLE_PREFIX } from './counts-signal.ts';

/**
 * The document title while a conversation is open: "Delivery to Oslo · Help centre".
 * @example documentTitleFor('Delivery to Oslo', 'Help centre') // 'Delivery to Oslo · Help centre'
 */
export const documentTitleFor = (conversation: string, page: string): string => (page ? `${conversation} · ${page}` : conversation);

/**
 * Whether a panel may set the host page's title: in a `<heed-widget mode="inline">` (a
 * full-page chat), or one with the opt-in `conversation-title` (or `data-conversation-title`)
 * attribute (a launcher must not take over a host page's title by default), or embedded by a
 * script tag with `data-conversation-title`. Read here, in the panel's chunk, so the first chunk pays nothing.
 */
export function followsConversationTitle(panel: Element): boolean {
  const widget = (panel.getRootNode() as ShadowRoot).host;
  if (widget?.localName !== 'heed-widget') return false;
  if (
    widget.getAttribute('mode') === 'inline' ||
    widget.hasAttribute('conversation-title') ||
    widget.hasAttribute('data-conversation-title')
  )
    return true;
  return !!document.querySelector('script[data-site][data-conversation-title]');
}

/**
 * Shows the open conversation's title as `document.title` and restores the page's own when
 * none is open (or the host element goes away). It keeps the opt-in count prefix ("(2) ")
 * that `publishCounts` owns, and a title the page sets itself meanwhile becomes the page's
 * title to restore.
 *
 * @example new ConversationTitle(this, () => (this.open ? this.openConversationTitle : null));
 */
export class ConversationTitle implements ReactiveController {
  /** the page's own title (without the count prefix), kept while a conversation's shows */
  private page: string | null = null;
  /** the title this controller last set (without the prefix) */
  private shown: string | null = null;

  constructor(
    host: ReactiveControllerHost,
    /** the open conversation's title, or null when none is open or the title is not ours to set */
    private readonly wanted: () => string | null,
  ) {
    host.addController(this);
  }

  hostUpdated(): void {
    this.show(this.wanted());
  }

  hostDisconnected(): void {
    this.show(null);
  }

  private show(conversation: string | null): void {
    const current = document.title;
    const prefix = TITLE_PREFIX.exec(current)?.[0] ?? '';
    const bare = current.slice(prefix.length);
    if (this.shown !== null && bare !== this.shown) this.page = bare; // the page retitled itself
    if (conversation === null) {
      if (this.page !== null && bare !== this.page) document.title = prefix + this.page;
      this.page = this.shown = null;
      return;
    }
    this.page ??= bare;
    this.shown = documentTitleFor(conversation, this.page);
    if (bare !== this.shown) document.title = prefix + this.shown;
  }
}
