import { html, nothing, type PropertyValues } from 'lit';
import type { AttentionCounts } from '../../../api/src/shared/attention.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { LOCALES } from '../i18n/catalog.ts';
import { lang, useLocale } from '../i18n/i18n.ts';
import { pickLocale } from '../i18n/pick-locale.ts';
import type { HeedStore } from '../state/store.ts';
import type { HeedLauncher } from '../launcher/launcher.component.ts';
import type { HeedPanel } from '../panel/panel.component.ts';
import type { ReplyPreview } from '../host/reply-preview.ts';
import { t } from '../i18n/i18n.ts';
import { closeIcon } from '../shared/icons.ts';
import { lockPageScroll } from '../host/scroll-lock.ts';
import { styles } from './widget.styles.ts';

const IDLE: AttentionCounts = { unread: 0, live: 0, inputNeeded: 0 };

/**
 * The whole widget on a host page: the launcher with its badge, and the panel, whose
 * code loads on first open (the first load stays small). In `inline` mode it fills its
 * container with the panel and has no launcher.
 *
 * Opening it returns the visitor to where their attention is: the thread this tab had open, else
 * the conversation that is live, needs input or is unviewed, else the most recent one
 * (`inbox/landing.ts`); the home view stays when the visitor went there on purpose.
 *
 * While a conversation is open, an inline widget shows its title as the document title
 * ("Delivery to Oslo · Help centre") and restores the page's own when none is; a launcher
 * widget only with the opt-in `conversation-title` attribute (or `data-conversation-title`
 * on the script tag). The panel's chunk does it (`host/conversation-title.ts`).
 *
 * It speaks the language of its `locale` (or `data-locale`) attribute, else the first of
 * the browser's languages it has strings for, else English (`i18n/`), and sets its `lang`
 * and `dir` from it: Arabic and Hebrew mirror the whole widget, the launcher's corner
 * included (`position` names the corner for left-to-right). A `dir` the page puts on the
 * element wins over the language's; the page's own direction does not reach it.
 *
 * On a phone the open panel fills the screen and the host page does not scroll behind it
 * (`host/scroll-lock.ts`); the page scrolls again once the panel closes.
 *
 * A reply that arrives while the panel is closed shows beside the launcher as a short preview
 * (its first line; `preview`, which the embedding code sets once per reply): pressing it opens
 * that conversation, its × dismisses it, opening the chat any way clears it.
 *
 * @event heed-opened - The panel opened.
 * @event heed-closed - The panel closed.
 *
 * @csspart launcher - (forwarded) the launcher button; `badge` its badge.
 * @csspart preview - The preview of a reply beside the closed launcher.
 *
 * @cssproperty --heed-offset - Distance from the viewport corner (20px).
 * @cssproperty --heed-z-index - Stacking order.
 * @cssproperty --heed-panel-width - Floating panel width with the conversation list beside the thread (720px at most).
 * @cssproperty --heed-panel-compact-width - Floating panel width without it (400px at most).
 * @cssproperty --heed-panel-height - Floating panel height.
 * @cssproperty --heed-radius - Corner radius.
 */
export class HeedWidget extends HeedElement {
  static override styles = styles;
  static override properties = {
    store: { attribute: false },
    counts: { attribute: false },
    mode: { reflect: true },
    position: { reflect: true },
    locale: {},
    open: { type: Boolean, reflect: true },
    resumeConversationId: { attribute: false },
    resumeHome: { attribute: false },
    preview: { attribute: false },
    panelReady: { state: true },
  };

  store?: HeedStore;
  /** what the launcher badge counts (the embedding code keeps it current) */
  counts: AttentionCounts = IDLE;
  mode: 'launcher' | 'inline' = 'launcher';
  position: 'bottom-right' | 'bottom-left' = 'bottom-right';
  locale?: string;
  open = false;
  /** the thread to show when the panel first renders (the one open before a reload) */
  resumeConversationId: string | null = null;
  /** the visitor went home on purpose in this tab: the panel opens on the home view */
  resumeHome = false;
  /** a reply to show beside the closed launcher (launcher mode only) */
  preview: ReplyPreview | null = null;
  /** how the panel's code arrives; a dynamic import, so bundlers split it out */
  loadPanel: () => Promise<unknown> = () => import('../panel/panel.ts');

  private panelReady = false;
  /** a phone-sized viewport: there the open panel fills the screen */
  private readonly phone = matchMedia('(max-width: 639.98px)');
  /** puts the host page's scrolling back; set while the page is locked */
  private unlockPage: (() => void) | null = null;
  /** the `dir` the page gave the element before the widget set its own (null: none) */
  private pageDir?: string | null;

  override connectedCallback() {
    super.connectedCallback();
    this.phone.addEventListener('change', this.lockWhileFullScreen);
    if (this.mode === 'inline') return void this.ensurePanel();
    this.raiseToTopLayer();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.phone.removeEventListener('change', this.lockWhileFullScreen);
    this.unlockPage?.();
    this.unlockPage = null;
  }

  protected override updated() {
    this.lockWhileFullScreen();
  }

  /** The host page is locked exactly while the open panel fills a phone's screen. */
  private readonly lockWhileFullScreen = () => {
    const fullScreen = this.mode === 'launcher' && this.open && this.phone.matches;
    if (fullScreen && !this.unlockPage) this.unlockPage = lockPageScroll();
    if (!fullScreen && this.unlockPage) {
      this.unlockPage();
      this.unlockPage = null;
    }
  };

  /**
   * In launcher mode the widget lives in the top layer (a manual popover): a `transform`,
   * `filter`, `contain` or `overflow` on any ancestor, `<body>` included, would otherwise
   * become its containing block and misplace or clip the fixed launcher and panel, and no
   * page z-index can cover it. Browsers without popovers keep the fixed position.
   */
  private raiseToTopLayer() {
    if (!this.showPopover || this.matches(':popover-open')) return;
    this.popover = 'manual';
    this.showPopover();
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (!this.hasUpdated || changed.has('locale')) this.chooseLocale();
  }

  /** Direction and `lang` at once (no corner jump); the strings follow when their chunk is in. */
  private chooseLocale() {
    const choice = pickLocale([this.locale ?? this.dataset.locale, ...navigator.languages], Object.keys(LOCALES));
    if (this.pageDir === undefined) this.pageDir = this.getAttribute('dir');
    if (!this.pageDir) this.dir = choice.dir;
    this.lang = choice.tag;
    void useLocale(choice);
  }

  async show(): Promise<void> {
    await this.ensurePanel();
    this.preview = null;
    if (this.open) return;
    this.open = true;
    this.emit('heed-opened');
  }

  hide(): void {
    if (!this.open || this.mode === 'inline') return;
    this.open = false;
    this.emit('heed-closed');
    // after the render: on a phone the launcher is not displayed while the panel is open
    void this.updateComplete.then(() => this.renderRoot.querySelector<HeedLauncher>('heed-launcher')?.focus());
  }

  toggle(): Promise<void> | void {
    return this.open ? this.hide() : this.show();
  }

  override render() {
    const inline = this.mode === 'inline';
    return html`${
      this.panelReady
        ? html`<heed-panel
          exportparts="panel"
          placement=${inline ? 'inline' : 'floating'}
          side=${this.position === 'bottom-left' ? 'left' : 'right'}
          .store=${this.store}
          .locale=${lang}
          .resumeConversationId=${this.resumeConversationId}
          .resumeHome=${this.resumeHome}
          .landOnOpen=${true}
          ?open=${inline || this.open}
          ?hidden=${!inline && !this.open}
          ?closable=${!inline}
          @heed-close=${this.onCloseRequest}
        ></heed-panel>`
        : nothing
    }
    ${
      inline
        ? nothing
        : html`${this.preview && !this.open ? this.previewCard(this.preview) : nothing}<heed-launcher
            class="launcher"
            exportparts="launcher, badge"
            ?open=${this.open}
            .counts=${this.counts}
            @heed-toggle=${() => this.toggle()}
          ></heed-launcher>`
    }`;
  }

  private previewCard(p: ReplyPreview) {
    return html`<div class="preview" part="preview">
      <button class="preview-text" dir="auto" @click=${() => this.openConversation(p.conversationId)}>
        <span class="sr-only">${t.newReply}: </span>${p.text}
      </button>
      <button class="preview-dismiss" @click=${() => (this.preview = null)}>${closeIcon()}<span class="sr-only">${t.dismiss}</span></button>
    </div>`;
  }

  /** Opens the chat on a conversation: the one a preview came from, or a reply email's link names. */
  async openConversation(conversationId: string): Promise<void> {
    await this.show();
    await this.renderRoot.querySelector<HeedPanel>('heed-panel')?.openConversation(conversationId);
  }

  private async ensurePanel() {
    if (this.panelReady) return;
    await this.loadPanel();
    this.panelReady = true;
    await this.updateComplete;
  }

  private readonly onCloseRequest = (e: Event) => {
    e.stopPropagation();
    this.hide();
  };
}
