import { HeedLauncher } from './launcher.component.ts';
import { define } from '../shared/define.ts';

export { HeedLauncher };

define('heed-launcher', HeedLauncher);

declare global {
  interface HTMLElementTagNameMap {
    'heed-launcher': HeedLauncher;
  }
}
