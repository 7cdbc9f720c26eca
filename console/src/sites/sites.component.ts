import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { SiteSummary } from '../state/contract.ts';
import { hrefOf } from '../state/route.ts';
import { styles } from './sites.styles.ts';

/**
 * The sites an operator's console covers: name, key, conversations, created; each opens
 * its settings. Owners get "New site".
 */
export class HeedConsoleSites extends ConsoleElement {
  static override styles = styles;

  @state() private sites: SiteSummary[] | null = null;
  @state() private error: string | null = null;

  override connectedCallback() {
    super.connectedCallback();
    this.emit('heed-title', { title: null });
    this.api
      .sites()
      .then((s) => (this.sites = s))
      .catch((err) => (this.error = this.failed(err).message));
  }

  override render() {
    return html`<div class="head">
        <h1>Sites</h1>
        ${this.isOwner ? html`<a class="button" href=${hrefOf({ view: 'site', siteId: null })}>New site</a>` : nothing}
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${
        this.sites === null
          ? html`<p class="muted">Loading…</p>`
          : this.sites.length === 0
            ? html`<p class="muted">No sites yet.${this.isOwner ? ' Create one to get its embed snippet.' : ''}</p>`
            : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Sites table"><table>
              <thead><tr><th>Name</th><th>Site key</th><th>Conversations</th><th>Created</th></tr></thead>
              <tbody>${this.sites.map(
                (s) => html`<tr>
                  <td><a href=${hrefOf({ view: 'site', siteId: s.id })}>${s.name}</a></td>
                  <td><code>${s.key}</code></td>
                  <td>${s.conversations}</td>
                  <td>${new Date(s.createdAt).toLocaleDateString()}</td>
                </tr>`,
              )}</tbody>
            </table></div>`
      }`;
  }
}
