import { HeedConsoleOverview } from './overview.component.ts';

export { HeedConsoleOverview };

customElements.get('heed-console-overview') || customElements.define('heed-console-overview', HeedConsoleOverview);

declare global {
  interface HTMLElementTagNameMap {
    'heed-console-overview': HeedConsoleOverview;
  }
}
