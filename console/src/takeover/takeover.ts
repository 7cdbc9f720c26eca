import { HeedConsoleTakeover } from './takeover.component.ts';

export { HeedConsoleTakeover };

customElements.get('heed-console-takeover') || customElements.define('heed-console-takeover', HeedConsoleTakeover);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-takeover': HeedConsoleTakeover;
  }
}
