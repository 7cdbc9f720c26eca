import { HeedLiveBanner } from './live-banner.component.ts';
import { define } from '../shared/define.ts';

export { HeedLiveBanner };

define('heed-live-banner', HeedLiveBanner);

declare global {
  interface HTMLElementTagNameMap {
    'heed-live-banner': HeedLiveBanner;
  }
}
