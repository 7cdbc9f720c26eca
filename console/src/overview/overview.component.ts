import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { OverviewRange, OverviewSeries, SiteSummary } from '../state/contract.ts';
import { chartsOf, totalsOf } from '../state/overview-charts.ts';
import { usd } from '../state/times.ts';
import { styles } from './overview.styles.ts';
import '../model-status/model-status.ts';
import '../overview-people/overview-people.ts';
import { counted } from '../state/plural.ts';

const RANGES: { value: OverviewRange; label: string }[] = [
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
];

/** uPlot and the chart element: their own chunk, fetched the first time an overview opens. */
let chartModule: Promise<unknown> | null = null;
const loadCharts = () => (chartModule ??= import('../overview-chart/overview-chart.ts'));

/**
 * The overview: for 24 hours, 7 days or 30 days (and all sites or one), the totals and
 * five charts — conversations and replies, time to first token p50/p95, failures by kind,
 * model tokens, title and reply cost — the team's figures ("People": first response and
 * resolution times, visitors' ratings), plus "Export CSV" of the same series, and the model
 * server's status (which features are off for which model).
 */
export class HeedConsoleOverview extends ConsoleElement {
  static override styles = styles;

  @state() private range: OverviewRange = '7d';
  @state() private siteId = '';
  @state() private sites: SiteSummary[] = [];
  @state() private series: OverviewSeries | null = null;
  @state() private chartsReady = false;
  @state() private error: string | null = null;

  override connectedCallback() {
    super.connectedCallback();
    this.emit('heed-title', { title: null });
    loadCharts()
      .then(() => (this.chartsReady = true))
      .catch(() => (this.error = 'The charts could not be loaded. Reload the page.'));
    this.api
      .sites()
      .then((s) => (this.sites = s))
      .catch((err) => this.failed(err));
    void this.load();
  }

  override render() {
    const t = this.series && totalsOf(this.series);
    return html`<h1>Overview</h1>
      <div class="toolbar">
        <div role="group" aria-label="Range" class="ranges">
          ${RANGES.map((r) => html`<button type="button" aria-pressed=${this.range === r.value ? 'true' : 'false'} @click=${() => this.pick(r.value)}>${r.label}</button>`)}
        </div>
        <label>Site
          <select @change=${this.pickSite}>
            <option value="">All sites</option>
            ${this.sites.map((s) => html`<option value=${s.id} ?selected=${s.id === this.siteId}>${s.name}</option>`)}
          </select>
        </label>
        <a class="button" href=${this.csvHref()} download>Export CSV</a>
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        t
          ? html`<dl class="totals" aria-label="Totals">
            <div><dt>Conversations</dt><dd>${t.conversations.toLocaleString()}</dd></div>
            <div><dt>Replies</dt><dd data-total="replies">${t.replies.toLocaleString()}</dd></div>
            <div><dt>Failures</dt><dd>${t.failures.toLocaleString()}</dd></div>
            <div><dt>Tokens in / out</dt><dd>${t.promptTokens.toLocaleString()} / ${t.completionTokens.toLocaleString()}</dd></div>
            <div><dt>Title cost</dt><dd>${usd(t.titleCostUsd)}</dd></div>
            <div><dt>Reply cost</dt><dd>${usd(t.replyCostUsd)}</dd></div>
          </dl>`
          : html`<p class="muted">Loading…</p>`
      }
      ${
        this.series && this.chartsReady
          ? html`<div class="charts">${chartsOf(this.series).map((spec) => html`<heed-overview-chart data-chart=${spec.id} .spec=${spec} .bucket=${this.series!.bucket}></heed-overview-chart>`)}</div>`
          : nothing
      }
      ${this.series ? html`<heed-overview-people .people=${this.series.people} .bucket=${this.series.bucket}></heed-overview-people>` : nothing}
      <heed-model-status .api=${this.api} .me=${this.me}></heed-model-status>`;
  }

  private csvHref() {
    const q = new URLSearchParams({ range: this.range });
    if (this.siteId) q.set('siteId', this.siteId);
    return `/admin/export/overview.csv?${q}`;
  }

  private pick(range: OverviewRange) {
    this.range = range;
    void this.load();
  }

  private pickSite(e: Event) {
    this.siteId = (e.target as HTMLSelectElement).value;
    void this.load();
  }

  private async load() {
    const asked = `${this.range}|${this.siteId}`;
    this.error = null;
    try {
      const series = await this.api.overview(this.range, this.siteId || undefined);
      if (asked !== `${this.range}|${this.siteId}`) return;
      this.series = series;
      const t = totalsOf(series);
      this.announce(
        `Overview for ${RANGES.find((r) => r.value === this.range)!.label}: ${counted(t.conversations, 'conversation')}, ${counted(t.replies, 'reply')}, ${counted(t.failures, 'failure')}.`,
      );
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }
}
