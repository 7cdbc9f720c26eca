import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import type { AttentionCounts } from '../../../api/src/shared/attention.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { StoreController } from '../state/store-controller.ts';
import type { HeedStore } from '../state/store.ts';
import type { HeedLauncher } from '../launcher/launcher.component.ts';
import { styles } from './widget.styles.ts';

const IDLE: AttentionCounts = { unread: 0, live: 0, inputNeeded: 0 };

/**
 * The whole widget on a host page: the launcher with its badge, and the panel, whose
 * code loads on first open (the first load stays small). In `inline` mode it fills its
 * container with the panel and has no launcher.
 *
 * @event heed-opened - The panel opened.
 * @event heed-closed - The panel closed.
 *
 * @csspart launcher - (forwarded) the launcher button; `badge` its badge.
 *
 * @cssproperty --heed-offset - Distance from the viewport corner (20px).
 * @cssproperty --heed-z-index - Stacking order.
 * @cssproperty --heed-panel-width - Floating panel width.
 * @cssproperty --heed-panel-height - Floating panel height.
 * @cssproperty --heed-radius - Corner radius.
 */
export class HeedWidget extends HeedElement {
  static override styles = styles;

  @property({ attribute: false }) store?: HeedStore;
  @property({ reflect: true }) mode: 'launcher' | 'inline' = 'launcher';
  @property({ reflect: true }) position: 'bottom-right' | 'bottom-left' = 'bottom-right';
  @property() locale?: string;
  @property({ type: Boolean, reflect: true }) open = false;
  /** how the panel's code arrives; a dynamic import, so bundlers split it out */
  loadPanel: () => Promise<unknown> = () => import('../panel/panel.ts');

  @state() private panelReady = false;
  @query('heed-launcher') private launcher?: HeedLauncher;
  private readonly sync = new StoreController(this, () => this.store);

  override connectedCallback() {
    super.connectedCallback();
    if (this.mode === 'inline') void this.ensurePanel();
  }

  async show(): Promise<void> {
    await this.ensurePanel();
    if (this.open) return;
    this.open = true;
    this.emit('heed-opened');
  }

  hide(): void {
    if (!this.open || this.mode === 'inline') return;
    this.open = false;
    this.emit('heed-closed');
    this.launcher?.focus();
  }

  toggle(): Promise<void> | void {
    return this.open ? this.hide() : this.show();
  }

  override render() {
    const inline = this.mode === 'inline';
    return html`${this.panelReady
      ? html`<heed-panel
          class="panel"
          exportparts="panel"
          .store=${this.store}
          .locale=${this.locale}
          ?open=${inline || this.open}
          ?hidden=${!inline && !this.open}
          ?closable=${!inline}
          @heed-close=${this.onCloseRequest}
        ></heed-panel>`
      : nothing}
    ${inline
      ? nothing
      : html`<heed-launcher class="launcher" exportparts="launcher, badge" ?open=${this.open} .counts=${this.store?.counts ?? IDLE} @heed-toggle=${() => this.toggle()}></heed-launcher>`}`;
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
