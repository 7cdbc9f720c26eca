import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ProactiveStats } from '../state/contract.ts';
import { kindText, reasonText } from '../state/proactive-words.ts';
import { styles } from './proactive-stats.styles.ts';

/** The window the site page shows, in UTC days. */
export const STATS_DAYS = 7;

/**
 * A site's unsolicited messages over the last 7 days: how many were delivered by kind
 * (intents, check-ins, from the site's server), and how many the rules and the budget
 * refused, by reason (unknown intent, daily budget used up, …), so an owner sees whether the
 * host page fires intents that never become messages.
 */
export class HeedProactiveStats extends ConsoleElement {
  static override styles = styles;

  @property() siteId = '';
  @state() private stats: ProactiveStats | null = null;
  @state() private error: string | null = null;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('siteId') && this.siteId) void this.load();
  }

  override render() {
    const s = this.stats;
    return html`<section aria-labelledby="stats-h">
      <h2 id="stats-h">Unsolicited messages, last ${STATS_DAYS} days</h2>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${s === null && !this.error ? html`<p class="muted">Loading…</p>` : nothing}
      ${
        s
          ? html`<div class="tables">
            ${this.table(
              'Delivered',
              'delivered',
              s.delivered.map((d) => [kindText(d.kind), d.count]),
              'None delivered.',
            )}
            ${this.table(
              'Refused',
              'refused',
              s.refused.map((r) => [reasonText(r.reason), r.count]),
              'None refused.',
            )}
          </div>`
          : nothing
      }
    </section>`;
  }

  private table(title: string, id: string, rows: [string, number][], empty: string) {
    const total = rows.reduce((sum, [, n]) => sum + n, 0);
    return html`<div class="card" data-stats=${id}>
      <h3 id="${id}-h">${title}: ${total}</h3>
      ${
        rows.length === 0
          ? html`<p class="muted">${empty}</p>`
          : html`<table aria-labelledby="${id}-h">
            <thead><tr><th>${id === 'delivered' ? 'Kind' : 'Reason'}</th><th>Count</th></tr></thead>
            <tbody>${rows.map(([what, n]) => html`<tr><td>${what}</td><td>${n.toLocaleString()}</td></tr>`)}</tbody>
          </table>`
      }
    </div>`;
  }

  private async load() {
    this.error = null;
    try {
      this.stats = await this.api.proactiveStats(this.siteId, STATS_DAYS);
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }
}
