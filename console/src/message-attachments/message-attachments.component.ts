import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import { attachmentFacts, WITHHELD } from '../state/attachment-words.ts';
import type { AttachmentView } from '../state/contract.ts';
import { styles } from './message-attachments.styles.ts';

/** A thumbnail fits this box (CSS pixels), its shape kept. */
const THUMB_WIDTH = 160;
const THUMB_HEIGHT = 120;

/**
 * The files sent with one message, under its words, in the order they were attached: an
 * image as a thumbnail in a button ("Enlarge error.png") that opens it whole in a modal
 * dialog (Escape or Close shut it, and focus goes back to the thumbnail); any other file as a
 * link with its type and size. A private conversation's files keep only what they are
 * ("PNG image · 1.2 MB (withheld: …)"): the server sends no name and no address for them.
 *
 * @example html`<heed-message-attachments .api=${api} .attachments=${m.attachments}></heed-message-attachments>`
 */
export class HeedMessageAttachments extends ConsoleElement {
  static override styles = styles;

  @property({ attribute: false }) attachments: AttachmentView[] = [];
  /** the image the dialog shows */
  @state() private shown: AttachmentView | null = null;
  @query('dialog') private dialog?: HTMLDialogElement;
  private opener: HTMLElement | null = null;

  override render() {
    if (this.attachments.length === 0) return nothing;
    return html`<ul class="attachments" aria-label="Attachments">
        ${this.attachments.map((a) => (a.url === null ? this.withheld(a) : a.kind === 'image' ? this.thumb(a, a.url) : this.file(a, a.url)))}
      </ul>
      ${this.viewer()}`;
  }

  private thumb(a: AttachmentView, url: string) {
    const size = thumbSize(a);
    return html`<li class="image">
      <button type="button" class="thumb" aria-label=${`Enlarge ${a.name}`} title=${attachmentFacts(a)} @click=${(e: Event) => this.enlarge(a, e)}>
        <img src=${this.api.fileUrl(url)} alt=${a.name} loading="lazy" width=${size?.width ?? nothing} height=${size?.height ?? nothing} />
      </button>
    </li>`;
  }

  private file(a: AttachmentView, url: string) {
    return html`<li class="file">
      <a href=${this.api.fileUrl(url)}>${a.name}</a>
      <span class="facts">${attachmentFacts(a)}</span>
    </li>`;
  }

  private withheld(a: AttachmentView) {
    return html`<li class="withheld">${attachmentFacts(a)} <span class="muted">(${WITHHELD})</span></li>`;
  }

  /** One dialog per message, filled with the image it shows. */
  private viewer() {
    const a = this.shown;
    return html`<dialog aria-labelledby="viewer-name" @close=${this.closed} @click=${this.backdrop}>
      ${
        a?.url
          ? html`<div class="frame">
              <div class="bar">
                <h2 id="viewer-name">${a.name}</h2>
                <span class="facts">${attachmentFacts(a)}${a.width && a.height ? ` · ${a.width} × ${a.height} px` : ''}</span>
                <a href=${this.api.fileUrl(a.url)} target="_blank" rel="noopener">Open in a new tab</a>
                <button type="button" class="close" autofocus @click=${() => this.dialog?.close()}>Close</button>
              </div>
              <img src=${this.api.fileUrl(a.url)} alt=${a.name} width=${a.width ?? nothing} height=${a.height ?? nothing} />
            </div>`
          : nothing
      }
    </dialog>`;
  }

  private async enlarge(a: AttachmentView, e: Event) {
    this.opener = e.currentTarget as HTMLElement;
    this.shown = a;
    await this.updateComplete;
    this.dialog?.showModal();
  }

  /** A click on the dimmed page around the image closes it, as Escape does (the frame fills the dialog: a click in it is not on the dialog itself). */
  private backdrop(e: MouseEvent) {
    if (e.target === this.dialog) this.dialog.close();
  }

  private closed() {
    this.shown = null;
    this.opener?.focus();
    this.opener = null;
  }
}

/** The thumbnail's size: the image scaled down into the box; null when its size is unknown (CSS bounds it). */
function thumbSize(a: AttachmentView): { width: number; height: number } | null {
  if (!a.width || !a.height) return null;
  const scale = Math.min(1, THUMB_WIDTH / a.width, THUMB_HEIGHT / a.height);
  return { width: Math.max(1, Math.round(a.width * scale)), height: Math.max(1, Math.round(a.height * scale)) };
}
