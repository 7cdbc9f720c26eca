import { HeedOverviewChart } from './overview-chart.component.ts';

export { HeedOverviewChart };

customElements.get('heed-overview-chart') || customElements.define('heed-overview-chart', HeedOverviewChart);

declare global {
  interface HTMLElementTagNameMap {
    'heed-overview-chart': HeedOverviewChart;
  }
}
