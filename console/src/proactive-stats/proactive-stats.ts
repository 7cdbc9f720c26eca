import { HeedProactiveStats } from './proactive-stats.component.ts';

export { HeedProactiveStats };

customElements.get('heed-proactive-stats') || customElements.define('heed-proactive-stats', HeedProactiveStats);

declare global {
  interface HTMLElementTagNameMap {
    'heed-proactive-stats': HeedProactiveStats;
  }
}
