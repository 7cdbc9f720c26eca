import { html, nothing } from 'lit';
import { badgeOf, type AttentionCounts } from '../../../api/src/shared/attention.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { badgeText } from '../shared/badge-text.ts';
import { latestCounts, COUNTS_EVENT } from '../host/counts-signal.ts';
import { styles } from './unread-badge.styles.ts';

/**
 * A badge a host page places in its own UI (`<heed-unread-badge></heed-unread-badge>`):
 * the same count and colour as the launcher badge, hidden (the `idle` attribute) when
 * nothing needs attention. It follows the `heed:counts` window event, so it agrees with
 * the launcher by construction.
 *
 * @csspart badge - The pill; `data-state` holds the state it counts.
 *
 * @cssproperty --heed-live-color - Pill colour per state (also `--heed-input-needed-color`, `--heed-unviewed-color`).
 */
export class HeedUnreadBadge extends HeedElement {
  static override styles = styles;
  static override properties = {
    counts: { attribute: false },
  };

  counts: AttentionCounts = latestCounts();

  override connectedCallback() {
    super.connectedCallback();
    this.counts = latestCounts();
    window.addEventListener(COUNTS_EVENT, this.onCounts);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener(COUNTS_EVENT, this.onCounts);
  }

  override render() {
    const badge = badgeOf(this.counts);
    this.toggleAttribute('idle', !badge);
    if (!badge) return nothing;
    return html`<span part="badge" data-state=${badge.state}><span aria-hidden="true">${badge.count}</span><span class="sr-only">${badgeText(this.counts)}</span></span>`;
  }

  private readonly onCounts = (e: Event) => {
    this.counts = (e as CustomEvent<AttentionCounts>).detail;
  };
}
