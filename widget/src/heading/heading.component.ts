import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { HeedElement } from '../shared/heed-element.ts';
import type { ConnectionStatus } from '../state/types.ts';
import { styles } from './heading.styles.ts';

export const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'Connecting…',
  connected: 'Connected',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  sign_in_needed: 'Sign-in needed',
};

/**
 * The one heading every layout uses: the truncated title with an inline connection dot
 * that never wraps, the connection status in a fixed place below it, and the provenance
 * label of the latest message. Its status text is the widget's only `aria-live` region,
 * so assistive tech hears connection changes once, from one place.
 *
 * @slot start - Buttons before the title (the drawer or back button).
 * @slot end - Buttons after the title (close).
 *
 * @csspart heading - The header bar.
 * @csspart title - The title.
 * @csspart connection-dot - The connection dot; `data-status` holds the status.
 * @csspart status - The status text.
 * @csspart provenance - The provenance label.
 *
 * @cssproperty --heed-heading-background - Bar background.
 * @cssproperty --heed-heading-font-size - Title size.
 * @cssproperty --heed-connected-color - Dot colour when connected (also `--heed-reconnecting-color`, `--heed-offline-color`).
 */
export class HeedHeading extends HeedElement {
  static override styles = styles;

  /** the conversation title (or the site name on the home view) */
  @property() label = '';
  @property() connection: ConnectionStatus = 'connecting';
  @property() provenance: string | null = null;
  @property({ reflect: true }) layout: 'wide' | 'narrow' = 'wide';

  override render() {
    return html`<header part="heading">
      <slot name="start"></slot>
      <div class="main">
        <div class="title-line">
          <h2 part="title" title=${this.label}>${this.label}</h2>
          <span class="dot" part="connection-dot" data-status=${this.connection} aria-hidden="true"></span>
        </div>
        <div class="meta">
          <span class="status" part="status" role="status" aria-live="polite">${STATUS_TEXT[this.connection]}</span>
          ${this.provenance ? html`<span class="provenance" part="provenance">${this.provenance}</span>` : nothing}
        </div>
      </div>
      <slot name="end"></slot>
    </header>`;
  }
}
