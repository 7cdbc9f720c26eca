import { HeedOverviewPeople } from './overview-people.component.ts';

export { HeedOverviewPeople };

customElements.get('heed-overview-people') || customElements.define('heed-overview-people', HeedOverviewPeople);

declare global {
  interface HTMLElementTagNameMap {
    'heed-overview-people': HeedOverviewPeople;
  }
}
