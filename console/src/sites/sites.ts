import { HeedConsoleSites } from './sites.component.ts';

export { HeedConsoleSites };

customElements.get('heed-console-sites') || customElements.define('heed-console-sites', HeedConsoleSites);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-sites': HeedConsoleSites;
  }
}
