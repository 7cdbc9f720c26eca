import { html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import '../knowledge-files/knowledge-files.ts';
import '../knowledge-snippets/knowledge-snippets.ts';
import '../unanswered-questions/unanswered-questions.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { KnowledgeSourceView } from '../state/contract.ts';
import { styles } from './knowledge-sources.styles.ts';

/** How often the list is read again while a source syncs. */
const WHILE_SYNCING_MS = 2000;

/**
 * A site's knowledge: the sitemaps and pages its assistant answers from, with citations. Each
 * source shows its pages, excerpts, last sync and the pages it could not read (and why). Owners
 * add a source ("Sitemap or page URL", "Add source"), sync it now, or remove it; agents read.
 * While a source syncs, the list is read again every two seconds.
 */
export class HeedKnowledgeSources extends SiteListElement {
  static override styles = styles;

  @state() private sources: KnowledgeSourceView[] | null = null;
  @state() private fieldError: string | null = null;
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;
  private poll?: ReturnType<typeof setTimeout>;

  override disconnectedCallback() {
    super.disconnectedCallback();
    clearTimeout(this.poll);
  }

  override render() {
    return html`<section aria-labelledby="knowledge-h">
      <h2 id="knowledge-h">Knowledge</h2>
      <p class="hint">The assistant answers from these pages, files and snippets and cites them under its replies. Each site source syncs again every day.</p>
      <h3>Website pages</h3>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.sources === null ? html`<p class="muted">Loading…</p>` : this.sources.length === 0 ? html`<p class="muted">No sources yet.</p>` : this.table(this.sources)}
      ${this.isOwner ? this.form() : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>
      <heed-knowledge-files .api=${this.api} .me=${this.me} .siteId=${this.siteId}></heed-knowledge-files>
      <heed-knowledge-snippets .api=${this.api} .me=${this.me} .siteId=${this.siteId}></heed-knowledge-snippets>
      <heed-unanswered-questions .api=${this.api} .me=${this.me} .siteId=${this.siteId}></heed-unanswered-questions>
    </section>`;
  }

  private table(sources: KnowledgeSourceView[]) {
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Knowledge sources table"><table>
      <thead><tr><th>Source</th><th>Pages</th><th>Excerpts</th><th>Last sync</th>${this.isOwner ? html`<th><span class="sr-only">Actions</span></th>` : nothing}</tr></thead>
      <tbody>${sources.map(
        (s) => html`<tr data-source=${s.url}>
          <td class="url">${s.url}${this.problems(s)}</td>
          <td>${s.pages}</td>
          <td>${s.excerpts}</td>
          <td>${s.syncing ? 'Syncing…' : s.lastSyncAt ? new Date(s.lastSyncAt).toLocaleString() : 'Not yet'}</td>
          ${
            this.isOwner
              ? html`<td class="row-actions">
                <button type="button" aria-label="Sync now: ${s.url}" ?disabled=${this.busy || s.syncing} @click=${() => this.sync(s)}>Sync now</button>
                <button type="button" class="danger" aria-label="Remove ${s.url}" ?disabled=${this.busy} @click=${() => this.removeSource(s)}>Remove</button>
              </td>`
              : nothing
          }
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  /** Why the last sync read nothing, or the pages it could not read. */
  private problems(s: KnowledgeSourceView) {
    if (s.lastError) return html`<p class="field-error">${s.lastError}</p>`;
    if (s.pageErrors.length === 0) return nothing;
    return html`<ul class="page-errors" aria-label="Pages not read">
      ${s.pageErrors.slice(0, 5).map((e) => html`<li>${e.url}: ${e.error}</li>`)}
      ${s.pageErrors.length > 5 ? html`<li>and ${s.pageErrors.length - 5} more</li>` : nothing}
    </ul>`;
  }

  private form() {
    return html`<form @submit=${this.add} novalidate>
      <div class="field">
        <label for="source-url">Sitemap or page URL</label>
        <input id="source-url" name="url" type="url" inputmode="url" autocomplete="off" spellcheck="false" maxlength="2000"
          placeholder="https://shop.example/sitemap.xml" aria-invalid=${this.fieldError ? 'true' : 'false'} aria-describedby="source-url-note" />
        <span id="source-url-note" class=${this.fieldError ? 'field-error' : 'hint'}>${this.fieldError ?? 'A sitemap, or a page: then the pages of the same site it links to.'}</span>
      </div>
      <button type="submit" class="primary" ?disabled=${this.busy}>Add source</button>
    </form>`;
  }

  protected async load() {
    clearTimeout(this.poll);
    try {
      this.sources = (await this.api.knowledgeSources(this.siteId)).filter((s) => s.kind === 'site');
      this.error = null;
      if (this.sources.some((s) => s.syncing || s.lastSyncAt === null)) this.poll = setTimeout(() => void this.load(), WHILE_SYNCING_MS);
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async add(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const url = String(new FormData(form).get('url') ?? '').trim();
    this.fieldError = /^https?:\/\/\S+$/i.test(url) ? null : 'An http or https address, e.g. https://shop.example/sitemap.xml.';
    if (this.fieldError) return;
    if (await this.call(() => this.api.addKnowledgeSource(this.siteId, url), `Source added: ${url}. Its pages are syncing.`)) form.reset();
  }

  private sync(s: KnowledgeSourceView) {
    return this.call(() => this.api.syncKnowledgeSource(s.id), `Syncing ${s.url}.`);
  }

  private async removeSource(s: KnowledgeSourceView) {
    const yes = await this.confirmDialog.ask({
      title: 'Remove this source?',
      text: `The assistant no longer answers from the pages of ${s.url}.`,
      confirm: 'Remove source',
    });
    if (yes) await this.call(() => this.api.removeKnowledgeSource(s.id), `Source removed: ${s.url}.`);
  }

  /** One change, then the list again; an error about the address goes beside its field. */
  private async call(run: () => Promise<unknown>, done: string): Promise<boolean> {
    const failure = await this.change(run, done);
    this.fieldError = failure?.fields.url ?? null;
    return failure === null;
  }
}
