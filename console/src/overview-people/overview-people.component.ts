import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { OverviewPeople, PeopleCounts, RatingCommentView } from '../state/contract.ts';
import { exactTime } from '../state/times.ts';
import { bucketText, shareText, waitText } from './people-words.ts';
import { styles } from './overview-people.styles.ts';

/** The figures' columns after a row's header, in order: each header names its figure in full. */
const COLUMNS: { label: string; cell: (c: PeopleCounts) => string }[] = [
  { label: 'First responses', cell: (c) => c.firstResponses.toLocaleString() },
  { label: 'First response p50', cell: (c) => waitText(c.firstResponseP50S) },
  { label: 'First response p90', cell: (c) => waitText(c.firstResponseP90S) },
  { label: 'Resolved', cell: (c) => c.resolutions.toLocaleString() },
  { label: 'Resolution p50', cell: (c) => waitText(c.resolutionP50S) },
  { label: 'Resolution p90', cell: (c) => waitText(c.resolutionP90S) },
  { label: 'Helpful', cell: (c) => c.helpful.toLocaleString() },
  { label: 'Not helpful', cell: (c) => c.notHelpful.toLocaleString() },
];

const any = (c: PeopleCounts) => c.firstResponses + c.resolutions + c.helpful + c.notHelpful > 0;

/**
 * "People": how fast the site's team answers and resolves, and what visitors thought of it.
 * First response is timed from when the visitor started waiting for a person (the assistant's
 * hand-off, else their first message the assistant had not answered) to the first operator
 * message; resolution from the same moment to resolved. A table of p50/p90 by day (by hour for
 * 24 hours; only the buckets where something happened, the whole range below them), one by
 * operator and, across several sites, one by site; the ratings (👍, 👎, share of 👍) and the visitors' comments, newest first.
 * Row and column headers are `th` with their scope, so a screen reader names each cell.
 */
export class HeedOverviewPeople extends ConsoleElement {
  static override styles = styles;

  @property({ attribute: false }) people?: OverviewPeople;
  @property() bucket: 'hour' | 'day' = 'day';

  override render() {
    const p = this.people;
    if (!p) return nothing;
    const when = this.bucket === 'day' ? 'Day (UTC)' : 'Hour';
    const rows = p.points.filter(any).map((pt) => ({ header: bucketText(pt.t, this.bucket), counts: pt }));
    const operators = p.operators.map((o) => ({ header: o.operator?.name || 'No operator (removed or unassigned)', counts: o }));
    const sites = p.sites.map((s) => ({ header: s.site.name, counts: s }));
    return html`<section aria-labelledby="people-h">
      <h2 id="people-h">People</h2>
      <p class="muted">
        First response: from when the visitor started waiting for a person to the first operator message. Resolution: from
        then to resolved. p50 is the median, p90 the time 9 in 10 stayed within.
      </p>
      ${
        rows.length === 0
          ? html`<p class="muted">Nobody waited for a person in this range.</p>`
          : html`${this.table('by-time', this.bucket === 'day' ? 'By day' : 'By hour', when, rows, p.total)}
            ${this.table('by-operator', 'By operator', 'Operator', operators, null)}
            ${sites.length > 1 ? this.table('by-site', 'By site', 'Site', sites, null) : nothing}`
      }
      <h3 id="ratings-h">Visitors’ ratings</h3>
      <dl class="ratings" aria-labelledby="ratings-h">
        <div><dt>Helpful</dt><dd data-rating="helpful">${p.total.helpful.toLocaleString()}</dd></div>
        <div><dt>Not helpful</dt><dd data-rating="not-helpful">${p.total.notHelpful.toLocaleString()}</dd></div>
        <div><dt>Share helpful</dt><dd data-rating="share">${shareText(p.total.helpfulShare)}</dd></div>
      </dl>
      ${this.comments(p.comments, p.commentCount)}
    </section>`;
  }

  private table(id: string, caption: string, corner: string, rows: { header: string; counts: PeopleCounts }[], total: PeopleCounts | null) {
    return html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-caption">
      <table data-table=${id}>
        <caption id="${id}-caption">${caption}</caption>
        <thead><tr><th scope="col">${corner}</th>${COLUMNS.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
        <tbody>${rows.map((r) => this.row(r.header, r.counts))}</tbody>
        ${total ? html`<tfoot>${this.row('Whole range', total)}</tfoot>` : nothing}
      </table>
    </div>`;
  }

  private row(header: string, counts: PeopleCounts) {
    return html`<tr><th scope="row">${header}</th>${COLUMNS.map((c) => html`<td>${c.cell(counts)}</td>`)}</tr>`;
  }

  private comments(comments: RatingCommentView[], count: number) {
    if (count === 0) return html`<p class="muted">No comments in this range.</p>`;
    return html`<h3 id="comments-h">Comments</h3>
      ${count > comments.length ? html`<p class="muted">The newest ${comments.length} of ${count.toLocaleString()}.</p>` : nothing}
      <ul class="comments" aria-labelledby="comments-h">
        ${comments.map(
          (c) => html`<li>
            <span class="thumb"><span aria-hidden="true">${c.rating === 1 ? '👍' : '👎'}</span> ${c.rating === 1 ? 'Helpful' : 'Not helpful'}</span>
            <p class="words" dir="auto">${c.comment}</p>
            <p class="meta">${c.siteName}${c.operatorName ? html` · ${c.operatorName}` : nothing} · <time datetime=${c.ratedAt}>${exactTime(c.ratedAt)}</time></p>
          </li>`,
        )}
      </ul>`;
  }
}
