import { html, nothing } from 'lit';
import { badgeOf, type AttentionCounts } from '../../../api/src/shared/attention.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { chatIcon, closeIcon } from '../shared/icons.ts';
import { badgeText } from '../shared/badge-text.ts';
import { t } from '../i18n/i18n.ts';
import { styles } from './launcher.styles.ts';

const IDLE: AttentionCounts = { unread: 0, live: 0, inputNeeded: 0 };

/**
 * The bubble that opens and closes the chat ("Open chat" / "Close chat", translated), with a badge
 * showing the count of the highest-priority state (live > input needed > unviewed), in
 * that state's colour; no badge when nothing needs attention.
 *
 * @event heed-toggle - The visitor pressed the launcher, or Escape on it while open: `detail: { open }` (the wanted state).
 *
 * @csspart launcher - The button.
 * @csspart badge - The badge; `data-state` holds the state it counts.
 *
 * @cssproperty --heed-accent - Bubble colour.
 * @cssproperty --heed-accent-contrast - Icon colour.
 * @cssproperty --heed-launcher-size - Diameter (56px).
 */
export class HeedLauncher extends HeedElement {
  static override styles = styles;
  static override properties = {
    open: { type: Boolean, reflect: true },
    counts: { attribute: false },
  };

  open = false;
  counts: AttentionCounts = IDLE;

  override render() {
    const badge = badgeOf(this.counts);
    // The badge's words reach a screen reader as the button's description only: hidden, they are
    // not read a second time as loose text of the host page (outside any of its landmarks).
    return html`<button part="launcher" aria-expanded=${this.open ? 'true' : 'false'} aria-describedby="badge-text" @click=${this.toggle} @keydown=${this.keydown}>
        ${this.open ? closeIcon() : chatIcon()}<span class="sr-only">${this.open ? t.closeChat : t.openChat}</span>
      </button>
      ${badge ? html`<span class="badge" part="badge" data-state=${badge.state} aria-hidden="true">${badge.count}</span>` : nothing}
      <span id="badge-text" hidden>${badgeText(this.counts)}</span>`;
  }

  override focus(options?: FocusOptions) {
    this.renderRoot.querySelector('button')?.focus(options);
  }

  private toggle() {
    this.emit('heed-toggle', { open: !this.open });
  }

  /** Escape closes the open chat from the launcher too (focus stays here, where it already is). */
  private keydown(e: KeyboardEvent) {
    if (e.key !== 'Escape' || !this.open) return;
    e.stopPropagation();
    this.emit('heed-toggle', { open: false });
  }
}
