import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ATTACHMENT_KINDS, ATTACHMENTS_PER_MESSAGE, formatBytes } from '../../../api/src/shared/attachment-kinds.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import { refusalSentence, tooMany } from '../state/attachment-words.ts';
import type { AttachmentView } from '../state/contract.ts';
import { UploadRefusal } from '../state/upload.ts';
import { styles } from './reply-attachments.styles.ts';

/** The picker offers what the server may take; the server decides again from the bytes. */
const ACCEPT = Object.values(ATTACHMENT_KINDS)
  .map((k) => k.mime)
  .join(',');

/** One file on its way into the reply. */
interface Upload {
  key: number;
  file: File;
  /** 0 to 1 */
  progress: number;
  /** the server took it: the reply sends this id */
  view: AttachmentView | null;
  abort: AbortController;
}

/**
 * The files of a reply being written: "Attach files" opens the picker, and the reply box
 * hands over what is pasted or dropped (`add`). Each file uploads at once and shows as a chip
 * with its name, size and progress, and "Remove <name>" (which also cancels an upload under
 * way). A refused file is left out and a sentence says why (the server's code and figures:
 * the site's limit, the type found in the bytes); nothing else of the draft changes. At most
 * `ATTACHMENTS_PER_MESSAGE` files.
 *
 * The reply reads `ids` once nothing is `uploading`, and `clear()`s it once sent.
 *
 * @example html`<heed-reply-attachments .api=${api} conversationId=${id}></heed-reply-attachments>`
 */
export class HeedReplyAttachments extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  @state() private uploads: Upload[] = [];
  /** why the latest files were left out */
  @state() private refusals: string[] = [];
  @query('input[type=file]') private picker?: HTMLInputElement;
  private next = 0;

  /** The uploaded files' ids, in the order attached. */
  get ids(): string[] {
    return this.uploads.flatMap((u) => (u.view ? [u.view.id] : []));
  }

  /** A file is still on its way. */
  get uploading(): boolean {
    return this.uploads.some((u) => u.view === null);
  }

  override render() {
    return html`<div class="attach">
        <input type="file" multiple accept=${ACCEPT} hidden @change=${this.picked} />
        <button type="button" @click=${() => this.picker?.click()} aria-describedby="attach-hint">Attach files</button>
        <span id="attach-hint" class="hint">or paste or drop them in the box: images, PDF or plain text, up to ${ATTACHMENTS_PER_MESSAGE}.</span>
      </div>
      ${
        this.uploads.length > 0
          ? html`<ul class="chips" aria-label="Files of this reply">
            ${this.uploads.map((u) => this.chip(u))}
          </ul>`
          : nothing
      }
      ${this.refusals.length > 0 ? html`<div class="error" role="alert">${this.refusals.map((r) => html`<p>${r}</p>`)}</div>` : nothing}`;
  }

  private chip(u: Upload) {
    const name = u.file.name;
    return html`<li class="chip" data-key=${u.key} data-state=${u.view ? 'attached' : 'uploading'}>
      <span class="name" title=${name}>${name}</span>
      <span class="size">${formatBytes(u.file.size)}</span>
      ${
        u.view
          ? html`<span class="ok">Attached</span>`
          : html`<progress max="100" value=${Math.round(u.progress * 100)} aria-label=${`Uploading ${name}`}></progress>`
      }
      <button type="button" class="remove" aria-label=${`Remove ${name}`} @click=${() => this.leaveOut(u)}>×</button>
    </li>`;
  }

  /** Uploads these files for the reply: each shows as a chip, or says why it was left out. */
  add(files: File[]): void {
    this.refusals = [];
    for (const file of files) {
      if (this.uploads.length >= ATTACHMENTS_PER_MESSAGE) {
        this.refusals = [...this.refusals, tooMany(file.name)];
        continue;
      }
      const upload: Upload = { key: ++this.next, file, progress: 0, view: null, abort: new AbortController() };
      this.uploads = [...this.uploads, upload];
      void this.send(upload);
    }
  }

  /** The reply was sent with them: start afresh. */
  clear(): void {
    for (const u of this.uploads) u.abort.abort();
    this.uploads = [];
    this.refusals = [];
  }

  private picked(e: Event) {
    const input = e.target as HTMLInputElement;
    this.add([...(input.files ?? [])]);
    // the same file chosen again is a change too
    input.value = '';
  }

  private async send(upload: Upload) {
    const change = (next: Partial<Upload>) => {
      if (!this.uploads.includes(upload)) return;
      Object.assign(upload, next);
      this.uploads = [...this.uploads];
    };
    try {
      const view = await this.api.uploadAttachment(this.conversationId, upload.file, {
        signal: upload.abort.signal,
        onProgress: (progress) => change({ progress }),
      });
      if (!this.uploads.includes(upload)) return;
      change({ view, progress: 1 });
      this.announce(`${upload.file.name} attached.`);
    } catch (err) {
      // removed while uploading: nothing to say
      if (upload.abort.signal.aborted || !this.uploads.includes(upload)) return;
      this.uploads = this.uploads.filter((u) => u !== upload);
      if (err instanceof UploadRefusal) {
        if (err.status === 401) this.emit('heed-signed-out');
        this.refusals = [...this.refusals, refusalSentence(upload.file.name, err)];
      } else {
        this.refusals = [...this.refusals, `“${upload.file.name}” was not attached: ${this.failed(err).message}`];
      }
    }
  }

  /** Leaves the file out; focus moves to the next chip's Remove, else to "Attach files". */
  private async leaveOut(upload: Upload) {
    const at = this.uploads.indexOf(upload);
    upload.abort.abort();
    this.uploads = this.uploads.filter((u) => u !== upload);
    this.announce(`${upload.file.name} removed.`);
    await this.updateComplete;
    const removes = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('button.remove')];
    (removes[Math.min(at, removes.length - 1)] ?? this.renderRoot.querySelector<HTMLButtonElement>('.attach button'))?.focus();
  }
}
