import { css, html, unsafeCSS } from 'lit';
import { property, query } from 'lit/decorators.js';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import { HeedElement } from '../../../widget/src/shared/heed-element.ts';
import { base } from '../shared/styles.ts';
import { type ChartSpec, formatValue } from '../state/overview-charts.ts';
import { yAxis } from './y-axis.ts';

/** Colours with ≥3:1 contrast on white, told apart also by dash (not by colour alone). */
const LINES = [
  { stroke: '#1a5fd0', dash: [] },
  { stroke: '#047857', dash: [6, 4] },
  { stroke: '#a04f00', dash: [2, 3] },
  { stroke: '#7c3aed', dash: [10, 3, 2, 3] },
  { stroke: '#b42318', dash: [1, 2] },
];

/**
 * One overview chart: a uPlot line chart (in its own chunk with uPlot, loaded when the
 * overview first opens) and, for screen readers and exact numbers, the same data as a table
 * behind "Show data". The canvas is hidden from assistive technology; the figure is named
 * by its caption. Follows its width (ResizeObserver), so it fits 375 px and 1280 px alike.
 */
export class HeedOverviewChart extends HeedElement {
  static override styles = [
    base,
    unsafeCSS(uplotCss),
    css`
      :host {
        display: block;
      }
      figure {
        margin: 0;
        background: #fff;
        border: 1px solid var(--c-border);
        border-radius: 12px;
        padding: 12px;
        min-width: 0;
      }
      figcaption {
        font-weight: 700;
        margin-bottom: 6px;
      }
      .plot {
        min-height: 200px;
      }
      details {
        margin-top: 6px;
        font-size: 0.9em;
      }
      td,
      th {
        padding: 4px 8px;
      }
    `,
  ];

  @property({ attribute: false }) spec?: ChartSpec;
  @property() bucket: 'hour' | 'day' = 'day';
  @query('.plot') private plotEl!: HTMLElement;
  private plot?: uPlot;
  private resize?: ResizeObserver;

  override render() {
    const s = this.spec;
    if (!s) return null;
    const when = (t: number) =>
      new Date(t * 1000).toLocaleString(
        undefined,
        this.bucket === 'hour'
          ? { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' }
          : { day: 'numeric', month: 'short' },
      );
    return html`<figure aria-labelledby="cap">
      <figcaption id="cap">${s.title}</figcaption>
      <div class="plot" aria-hidden="true"></div>
      <details>
        <summary>Show data</summary>
        <div class="table-wrap" tabindex="0" role="region" aria-label="${s.title} data"><table>
          <thead><tr><th>${this.bucket === 'hour' ? 'Hour' : 'Day'}</th>${s.lines.map((l) => html`<th>${l.label}</th>`)}</tr></thead>
          <tbody>${s.x.map((t, i) => html`<tr><td>${when(t)}</td>${s.lines.map((l) => html`<td>${formatValue(l.values[i] ?? null, l.unit)}</td>`)}</tr>`)}</tbody>
        </table></div>
      </details>
    </figure>`;
  }

  override updated(changed: Map<string, unknown>) {
    if (changed.has('spec')) this.draw();
  }

  override disconnectedCallback() {
    this.resize?.disconnect();
    this.plot?.destroy();
    this.plot = undefined;
    super.disconnectedCallback();
  }

  private draw() {
    this.plot?.destroy();
    const s = this.spec;
    if (!s) return;
    const unit = s.lines[0]?.unit ?? 'count';
    const width = Math.max(260, this.plotEl.clientWidth);
    this.plot = new uPlot(
      {
        width,
        height: 200,
        series: [
          {},
          ...s.lines.map((l, i) => ({
            label: l.label,
            stroke: LINES[i % LINES.length]!.stroke,
            dash: LINES[i % LINES.length]!.dash,
            width: 2,
            value: (_u: uPlot, v: number | null) => formatValue(v, l.unit),
          })),
        ],
        axes: [{}, yAxis(unit)],
        scales: { y: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, unit === 'usd' ? 0.001 : 1)] } },
      },
      [s.x, ...s.lines.map((l) => l.values)] as uPlot.AlignedData,
      this.plotEl,
    );
    this.resize ??= new ResizeObserver(() => this.plot?.setSize({ width: Math.max(260, this.plotEl.clientWidth), height: 200 }));
    this.resize.observe(this.plotEl);
  }
}
