import { html, nothing } from 'lit';
import { query, state } from 'lit/decorators.js';
import '../confirm-dialog/confirm-dialog.ts';
import type { HeedConfirmDialog } from '../confirm-dialog/confirm-dialog.component.ts';
import { SiteListElement } from '../shared/site-list-element.ts';
import type { KnowledgeSourceView } from '../state/contract.ts';
import { styles } from '../knowledge-sources/knowledge-sources.styles.ts';
import { counted } from '../state/plural.ts';

/** The file types the server reads, as the picker offers them. */
export const KNOWLEDGE_FILE_TYPES = '.md,.markdown,.txt,.html,.htm,.pdf';

/**
 * A site's uploaded knowledge files (Markdown, plain text, HTML, PDF): each with its size and
 * excerpts. Owners upload ("File to upload", "Upload file") and remove; the server reads the
 * file at once and says why when it cannot (too large, another kind, no text).
 */
export class HeedKnowledgeFiles extends SiteListElement {
  static override styles = styles;

  @state() private files: KnowledgeSourceView[] | null = null;
  @query('heed-confirm-dialog') private confirmDialog!: HeedConfirmDialog;
  @query('#knowledge-file') private picker!: HTMLInputElement;

  override render() {
    return html`<h3 id="files-h">Files</h3>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.list()}
      ${this.isOwner ? this.form() : nothing}
      <heed-confirm-dialog></heed-confirm-dialog>`;
  }

  private list() {
    if (this.files === null) return html`<p class="muted">Loading…</p>`;
    if (this.files.length === 0) return html`<p class="muted">No files yet.</p>`;
    return html`<ul class="plain items" aria-labelledby="files-h">
      ${this.files.map(
        (f) => html`<li data-file=${f.name ?? ''}>
          <span class="url">${f.name}</span>
          <span class="muted">${size(f.bytes)}, ${counted(f.excerpts, 'excerpt')}</span>
          ${this.isOwner ? html`<button type="button" class="danger" aria-label="Remove ${f.name}" ?disabled=${this.busy} @click=${() => this.removeFile(f)}>Remove</button>` : nothing}
        </li>`,
      )}
    </ul>`;
  }

  private form() {
    return html`<form @submit=${this.upload} novalidate>
      <div class="field">
        <label for="knowledge-file">File to upload</label>
        <input id="knowledge-file" name="file" type="file" accept=${KNOWLEDGE_FILE_TYPES} aria-describedby="knowledge-file-note" />
        <span id="knowledge-file-note" class="hint">Markdown, plain text, HTML or PDF.</span>
      </div>
      <button type="submit" class="primary" ?disabled=${this.busy}>Upload file</button>
    </form>`;
  }

  protected async load() {
    try {
      this.files = (await this.api.knowledgeSources(this.siteId)).filter((s) => s.kind === 'file');
      this.error = null;
    } catch (err) {
      this.error = this.failed(err).message;
    }
  }

  private async upload(e: SubmitEvent) {
    e.preventDefault();
    const file = this.picker.files?.[0];
    if (!file) {
      this.error = 'Choose a file to upload first.';
      this.picker.focus();
      return;
    }
    const failure = await this.change(async () => {
      await this.api.uploadKnowledgeFile(this.siteId, file.name, await base64Of(file));
      this.picker.value = '';
    }, `File added: ${file.name}.`);
    // the file's name is the one field: its error (a kind not taken) says it all
    if (failure?.fields.name) this.error = failure.fields.name;
  }

  private async removeFile(f: KnowledgeSourceView) {
    const yes = await this.confirmDialog.ask({
      title: 'Remove this file?',
      text: `The assistant no longer answers from ${f.name}.`,
      confirm: 'Remove file',
    });
    if (yes) await this.change(() => this.api.removeKnowledgeSource(f.id), `File removed: ${f.name}.`);
  }
}

/** "12 KB", "1.4 MB": a file's size as a person reads it. */
function size(bytes: number | null): string {
  if (bytes === null) return 'size unknown';
  if (bytes < 1000) return `${bytes} bytes`;
  return bytes < 1_000_000 ? `${Math.round(bytes / 1000)} KB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A file's bytes as base64, as the upload carries them. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}
