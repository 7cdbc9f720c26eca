import { html, nothing } from 'lit';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { styles } from './live-banner.styles.ts';

/**
 * A thin banner while replies stream: "1 live chat receiving replies" /
 * "N live chats receiving replies". Renders nothing at zero. Not a live region: the
 * heading's status is the widget's only one.
 *
 * @csspart banner - The bar.
 * @cssproperty --heed-live-color - Its accent.
 */
export class HeedLiveBanner extends HeedElement {
  static override styles = styles;
  static override properties = {
    count: { type: Number },
  };

  count = 0;

  override render() {
    if (this.count <= 0) return nothing;
    return html`<div part="banner">${t.liveReplies(this.count)}</div>`;
  }
}
