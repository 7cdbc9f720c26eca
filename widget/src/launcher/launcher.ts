import { HeedLauncher } from './launcher.component.ts';

export { HeedLauncher };

customElements.get('heed-launcher') || customElements.define('heed-launcher', HeedLauncher);

declare global {
  interface HTMLElementTagNameMap {
    'heed-launcher': HeedLauncher;
  }
}
