import { html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { CannedReply } from '../state/contract.ts';
import { styles } from '../knowledge-sources/knowledge-sources.styles.ts';

/** As the server bounds them (api/src/inbox/canned-replies.ts). */
const SHORTCUT_MAX = 40;
const CONTENT_MAX = 4000;

/**
 * A site's canned replies: saved answers an operator inserts in the reply box by typing `/`
 * and the shortcut. Owners add ("Shortcut", "Reply", "Add canned reply"), edit and remove them;
 * agents read the list.
 */
export class HeedCannedReplies extends SiteListElement {
  static override styles = styles;

  @state() private replies: CannedReply[] | null = null;
  @state() private editing: CannedReply | null = null;
  @state() private fields: Record<string, string | undefined> = {};
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;
  @query('#canned-shortcut') private shortcutField!: HTMLInputElement;

  override render() {
    return html`<section aria-labelledby="canned-h">
      <h2 id="canned-h">Canned replies</h2>
      <p class="hint">Answers your team sends often: in a conversation's reply box, type / and the shortcut.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing} ${this.list()}
      ${this.isOwner ? this.form() : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>
    </section>`;
  }

  private list() {
    if (this.replies === null) return html`<p class="muted">Loading…</p>`;
    if (this.replies.length === 0) return html`<p class="muted">No canned replies yet.</p>`;
    return html`<ul class="plain items" aria-labelledby="canned-h">
      ${this.replies.map(
        (r) => html`<li data-canned=${r.id}>
          <strong>/${r.shortcut}</strong>
          <p class="answer">${r.content}</p>
          ${this.isOwner ? this.actions(r) : nothing}
        </li>`,
      )}
    </ul>`;
  }

  private actions(r: CannedReply) {
    return html`<span class="row-actions">
      <button type="button" aria-label="Edit canned reply: /${r.shortcut}" ?disabled=${this.busy} @click=${() => this.edit(r)}>Edit</button>
      <button type="button" class="danger" aria-label="Remove canned reply: /${r.shortcut}" ?disabled=${this.busy} @click=${() => this.removeReply(r)}>Remove</button>
    </span>`;
  }

  private form() {
    const e = this.editing;
    const error = (name: string) => this.fields[name];
    return html`<form class="stacked" @submit=${this.save} novalidate aria-label=${e ? 'Edit canned reply' : 'New canned reply'}>
      <div class="field">
        <label for="canned-shortcut">Shortcut</label>
        <input id="canned-shortcut" name="shortcut" maxlength=${SHORTCUT_MAX} .value=${e?.shortcut ?? ''}
          aria-invalid=${error('shortcut') ? 'true' : 'false'} aria-describedby="canned-shortcut-note" />
        <span id="canned-shortcut-note" class=${error('shortcut') ? 'field-error' : 'hint'}>${error('shortcut') ?? 'Lower-case letters, digits and -, e.g. refund-policy.'}</span>
      </div>
      <div class="field">
        <label for="canned-content">Reply</label>
        <textarea id="canned-content" name="content" rows="3" maxlength=${CONTENT_MAX} .value=${e?.content ?? ''}
          aria-invalid=${error('content') ? 'true' : 'false'} aria-describedby="canned-content-note"></textarea>
        <span id="canned-content-note" class=${error('content') ? 'field-error' : 'hint'}>${error('content') ?? 'What the visitor reads; edit it in the box before sending if you like.'}</span>
      </div>
      <div class="buttons">
        <button type="submit" class="primary" ?disabled=${this.busy}>${e ? 'Save canned reply' : 'Add canned reply'}</button>
        ${e ? html`<button type="button" @click=${() => this.edit(null)}>Cancel</button>` : nothing}
      </div>
    </form>`;
  }

  private async edit(r: CannedReply | null) {
    this.editing = r;
    this.fields = {};
    await this.updateComplete;
    this.shortcutField?.focus();
  }

  protected async load() {
    try {
      this.replies = await this.api.cannedReplies(this.siteId);
      this.error = null;
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const shortcut = String(data.get('shortcut') ?? '')
      .trim()
      .replace(/^\//, '');
    const content = String(data.get('content') ?? '').trim();
    this.fields = { shortcut: shortcut ? undefined : 'Write a shortcut.', content: content ? undefined : 'Write the reply.' };
    if (!shortcut || !content) return this.focusFirstInvalid();
    const id = this.editing?.id;
    const failure = await this.change(
      () => this.api.saveCannedReply(this.siteId, { ...(id ? { id } : {}), shortcut, content }),
      id ? 'Canned reply saved.' : 'Canned reply added.',
    );
    // a taken shortcut is the shortcut's problem: say so beside it
    const taken = failure?.reason === 'shortcut_taken' ? failure.message : undefined;
    this.fields = { shortcut: failure?.fields.shortcut ?? taken, content: failure?.fields.content };
    if (failure) return this.focusFirstInvalid();
    this.editing = null;
    form.reset();
  }

  private async removeReply(r: CannedReply) {
    const yes = await this.confirmDialog.ask({
      title: `Remove /${r.shortcut}?`,
      text: 'Your team can no longer insert this reply with its shortcut.',
      confirm: 'Remove canned reply',
    });
    if (yes) await this.change(() => this.api.removeCannedReply(this.siteId, r.id), 'Canned reply removed.');
  }
}
