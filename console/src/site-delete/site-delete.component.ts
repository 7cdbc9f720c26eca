import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { SiteDeletion } from '../state/contract.ts';
import { styles } from './site-delete.styles.ts';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * "Delete site…" and its confirmation: a modal dialog that says what goes with the site
 * (its conversations, visitors and messages, counted by `console.sites.deletion` when it
 * opens) and enables "Delete site" only once the site key is typed. The server deletes
 * everything in one transaction, and checks the key again.
 *
 * @event heed-site-deleted - The site is gone. `detail: { siteId, deleted }`.
 */
export class HeedSiteDelete extends ConsoleElement {
  static override styles = styles;

  @property() siteId = '';
  @property() siteKey = '';
  @property() siteName = '';
  @state() private counts: SiteDeletion | null = null;
  @state() private typed = '';
  @state() private busy = false;
  @state() private error: string | null = null;
  @query('dialog') private dialog!: HTMLDialogElement;

  override render() {
    const c = this.counts;
    return html`<button type="button" class="danger" @click=${this.open}>Delete site…</button>
      <dialog aria-labelledby="delete-h" @close=${() => (this.typed = '')}>
        <form method="dialog" @submit=${this.submit}>
          <h2 id="delete-h">Delete ${this.siteName}?</h2>
          ${
            c
              ? html`<p id="delete-what">
                This deletes the site and, with it, ${plural(c.conversations, 'conversation', 'conversations')},
                ${plural(c.visitors, 'visitor', 'visitors')} and ${plural(c.messages, 'message', 'messages')}. It cannot be undone.
              </p>`
              : html`<p class="muted">Counting what the site holds…</p>`
          }
          <label>Type the site key <code>${this.siteKey}</code> to confirm
            <input name="confirmKey" autocomplete="off" spellcheck="false" .value=${this.typed} @input=${(e: InputEvent) => (this.typed = (e.target as HTMLInputElement).value)} />
          </label>
          ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
          <div class="row-actions">
            <button type="submit" class="danger" ?disabled=${!this.confirmed || this.busy}>Delete site</button>
            <button type="button" @click=${() => this.dialog.close()}>Cancel</button>
          </div>
        </form>
      </dialog>`;
  }

  /** The typed key matches (exactly, as the server compares it). */
  get confirmed(): boolean {
    return this.typed.trim() === this.siteKey && this.siteKey !== '';
  }

  private async open() {
    this.error = null;
    this.counts = null;
    this.dialog.showModal();
    try {
      this.counts = await this.api.siteDeletion(this.siteId);
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    if (!this.confirmed) return;
    this.busy = true;
    this.error = null;
    try {
      const { deleted } = await this.api.deleteSite(this.siteId, this.typed.trim());
      this.dialog.close();
      this.emit('heed-site-deleted', { siteId: this.siteId, deleted });
    } catch (err) {
      this.error = this.failed(err).message;
    } finally {
      this.busy = false;
    }
  }
}
