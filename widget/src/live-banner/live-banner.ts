import { HeedLiveBanner } from './live-banner.component.ts';

export { HeedLiveBanner };

customElements.get('heed-live-banner') || customElements.define('heed-live-banner', HeedLiveBanner);

declare global {
  interface HTMLElementTagNameMap {
    'heed-live-banner': HeedLiveBanner;
  }
}
