import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ApiKeyRow, CreatedApiKey } from '../state/contract.ts';
import { exactTime } from '../state/times.ts';
import { styles } from './api-keys.styles.ts';

/**
 * A site's secret API keys, for its own server to send a visitor a message
 * (`POST /api/v1/sites/<key>/messages`). Owners create one with a name, and see the key
 * ONCE, with "Copy key" and a warning (only its hash is stored); the list shows each key's
 * name, prefix, when it was created and last used, and whether it is revoked. "Revoke" asks
 * first; a revoked key's next request is refused. Agents see the list only.
 */
export class HeedApiKeys extends ConsoleElement {
  static override styles = styles;

  @property() siteId = '';
  @property() siteKey = '';
  @state() private keys: ApiKeyRow[] | null = null;
  @state() private created: CreatedApiKey | null = null;
  @state() private nameError: string | null = null;
  @state() private error: string | null = null;
  @state() private busy = false;
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('siteId') && this.siteId) {
      this.created = null;
      void this.load();
    }
  }

  override render() {
    return html`<section aria-labelledby="keys-h">
      <h2 id="keys-h">Server API keys</h2>
      <p class="hint">
        Your server sends a signed-in visitor a message with <code>POST /api/v1/sites/${this.siteKey || '<site key>'}/messages</code> and
        <code>Authorization: Bearer &lt;key&gt;</code>. The message is labelled “From” your site.
      </p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.created ? this.shown(this.created) : nothing}
      ${this.keys === null ? html`<p class="muted">Loading…</p>` : this.keys.length === 0 ? html`<p class="muted">No API keys yet.</p>` : this.table(this.keys)}
      ${
        this.isOwner
          ? html`<form class="create" @submit=${this.create} novalidate>
            <div class="field">
              <label for="key-name">Key name</label>
              <input id="key-name" name="name" maxlength="80" autocomplete="off" aria-invalid=${this.nameError ? 'true' : 'false'} aria-describedby="key-name-note" />
              <span id="key-name-note" class=${this.nameError ? 'field-error' : 'hint'}>${this.nameError ?? 'Where it is used, e.g. “Order service”.'}</span>
            </div>
            <button type="submit" ?disabled=${this.busy}>Create key</button>
          </form>`
          : nothing
      }
      <heed-confirm-dialog></heed-confirm-dialog>
    </section>`;
  }

  private shown(k: CreatedApiKey) {
    return html`<div class="secret" role="group" aria-label="New API key">
      <p><strong>Copy it now: it is shown only once.</strong> Keep it on your server; whoever holds it can message your visitors.</p>
      <pre id="new-key">${k.key}</pre>
      <div class="row-actions">
        <button type="button" @click=${this.copy}>Copy key</button>
        <button type="button" @click=${() => (this.created = null)}>I have stored it</button>
      </div>
    </div>`;
  }

  private table(keys: ApiKeyRow[]) {
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="API keys table"><table>
      <thead><tr><th>Name</th><th>Prefix</th><th>Created</th><th>Last used</th><th>Status</th>${this.isOwner ? html`<th><span class="sr-only">Actions</span></th>` : nothing}</tr></thead>
      <tbody>${keys.map(
        (k) => html`<tr data-key=${k.id} data-revoked=${k.revokedAt ? 'true' : 'false'}>
          <td>${k.name}</td>
          <td><code>${k.prefix}…</code></td>
          <td>${exactTime(k.createdAt)}</td>
          <td>${k.lastUsedAt ? exactTime(k.lastUsedAt) : 'Never'}</td>
          <td>${k.revokedAt ? `Revoked ${exactTime(k.revokedAt)}` : 'Active'}</td>
          ${
            this.isOwner
              ? html`<td>${k.revokedAt ? nothing : html`<button type="button" class="danger" aria-label="Revoke ${k.name}" @click=${() => this.revoke(k)}>Revoke</button>`}</td>`
              : nothing
          }
        </tr>`,
      )}</tbody>
    </table></div>`;
  }

  private async load() {
    try {
      this.keys = await this.api.apiKeys(this.siteId);
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async create(e: SubmitEvent) {
    e.preventDefault();
    const formEl = e.target as HTMLFormElement;
    const name = String(new FormData(formEl).get('name') ?? '').trim();
    this.nameError = name ? null : 'Give the key a name.';
    if (!name) return;
    this.busy = true;
    this.error = null;
    try {
      this.created = await this.api.createApiKey(this.siteId, name);
      formEl.reset();
      this.announce(`API key ${name} created. Copy it now: it is shown only once.`);
      await this.load();
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.secret button')?.focus();
    } catch (err) {
      const text = this.failed(err);
      this.nameError = text.fields.name ?? null;
      this.error = text.message;
    } finally {
      this.busy = false;
    }
  }

  private async revoke(k: ApiKeyRow) {
    const yes = await this.confirmDialog.ask({
      title: `Revoke ${k.name}?`,
      text: `Requests with the key ${k.prefix}… are refused from now on. This cannot be undone: a new key must be created and put on your server.`,
      confirm: 'Revoke key',
    });
    if (!yes) return;
    this.error = null;
    try {
      await this.api.revokeApiKey(this.siteId, k.id);
      this.announce(`API key ${k.name} revoked.`);
      await this.load();
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async copy() {
    try {
      await navigator.clipboard.writeText(this.created?.key ?? '');
      this.announce('Key copied to the clipboard.');
    } catch {
      // no clipboard permission: select the key so Control+C copies it
      const pre = this.renderRoot.querySelector('#new-key');
      if (pre) getSelection()?.selectAllChildren(pre);
      this.announce('Copying is blocked here: the key is selected, press Control+C.');
    }
  }
}
