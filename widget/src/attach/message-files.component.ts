import { html, nothing } from 'lit';
import { ATTACHMENT_KINDS, kindOfMime } from '../../../api/src/shared/attachment-kinds.ts';
import { lang } from '../i18n/i18n.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { closeIcon } from '../shared/icons.ts';
import type { AttachmentView } from '../state/types.ts';
import { fileIcon } from './attach-icons.ts';
import { fileSize } from './file-size.ts';
import { at } from './strings.ts';
import { styles } from './message-files.styles.ts';

/** A thumbnail fits in this box (CSS pixels), keeping its proportions. */
const THUMB_WIDTH = 220;
const THUMB_HEIGHT = 180;

/** An image's thumbnail size: its own, shrunk to fit the box (a guess when the server did not measure it). */
function thumbnailSize(f: AttachmentView): [number, number] {
  const w = f.width || THUMB_WIDTH;
  const h = f.height || THUMB_HEIGHT;
  const scale = Math.min(1, THUMB_WIDTH / w, THUMB_HEIGHT / h);
  return [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
}

/** "PDF, 1.2 MB": a file's type and size in the visitor's language. */
function describe(f: AttachmentView): string {
  const kind = kindOfMime(f.mime);
  const type = kind === 'text' ? at().textFile : kind ? ATTACHMENT_KINDS[kind].label : (f.mime.split('/')[1] ?? f.mime).toUpperCase();
  return new Intl.ListFormat(lang, { type: 'unit', style: 'short' }).format([type, fileSize(f.bytes)]);
}

/**
 * The files of one message in the thread, the visitor's or an operator's: images as thumbnails
 * (sized from the image's own width and height, loaded lazily), each a button "Enlarge
 * photo.png" that opens the image in a modal dialog named by the file (focus moves to its Close
 * button; Escape, Close or a click beside the image closes it, and focus returns to the
 * thumbnail); other files as a link with their name, type and size, which downloads the file.
 * Every address is the API's (`new URL(url, base)`): the page's CSP must allow it in `img-src`.
 *
 * @csspart files - The list of files.
 * @csspart thumbnail - An image's button.
 * @csspart file - A file's link.
 * @csspart image-dialog - The dialog an image opens in.
 */
export class HeedMessageFiles extends HeedElement {
  static override styles = styles;
  static override properties = {
    files: { attribute: false },
    base: {},
    enlarged: { state: true },
  };

  files: readonly AttachmentView[] = [];
  /** the API's base URL, which every file's `url` is relative to */
  base = '';
  /** the image shown in the dialog */
  private enlarged: AttachmentView | null = null;
  private get dialog(): HTMLDialogElement | null {
    return this.renderRoot?.querySelector<HTMLDialogElement>('dialog');
  }
  /** the thumbnail that opened the dialog: focus returns there */
  private opener: HTMLElement | null = null;

  override render() {
    return html`<ul part="files">
        ${this.files.map((f) => html`<li>${this.file(f)}</li>`)}
      </ul>
      ${this.lightbox()}`;
  }

  private file(f: AttachmentView) {
    const href = this.href(f);
    if (!href) return html`<span class="file"><span class="icon">${fileIcon()}</span><span class="name" dir="auto">${f.name}</span></span>`;
    if (f.kind === 'image') {
      const [width, height] = thumbnailSize(f);
      return html`<button type="button" class="thumb" part="thumbnail" aria-label=${at().enlarge(f.name)} @click=${(e: Event) => this.enlarge(f, e.currentTarget as HTMLElement)}>
        <img src=${href} alt=${f.name} width=${width} height=${height} loading="lazy" />
      </button>`;
    }
    return html`<a class="file" part="file" href=${href} download=${f.name} target="_blank" rel="noopener noreferrer">
      <span class="icon">${fileIcon()}</span>
      <span class="about"><span class="name" dir="auto">${f.name}</span> <span class="meta">${describe(f)}</span></span>
    </a>`;
  }

  /**
   * One dialog for the element's images. `aria-live="off"`: it sits inside the thread's log, whose
   * additions are read out, and opening an image is not news.
   */
  private lightbox() {
    const f = this.enlarged;
    return html`<dialog part="image-dialog" aria-labelledby="title" aria-live="off" @close=${this.closed} @keydown=${this.keydown} @click=${this.backdrop}>
      ${
        f
          ? html`<div class="box">
            <div class="bar">
              <h2 id="title" dir="auto">${f.name}</h2>
              <button type="button" class="close" autofocus @click=${() => this.dialog?.close()}>${closeIcon()}<span class="sr-only">${at().close}</span></button>
            </div>
            <img src=${this.href(f) ?? ''} alt=${f.name} width=${f.width ?? nothing} height=${f.height ?? nothing} />
          </div>`
          : nothing
      }
    </dialog>`;
  }

  private href(f: AttachmentView): string | null {
    if (!f.url) return null; // withheld
    try {
      return new URL(f.url, this.base || undefined).href;
    } catch {
      return null;
    }
  }

  private async enlarge(f: AttachmentView, opener: HTMLElement) {
    this.enlarged = f;
    this.opener = opener;
    await this.updateComplete;
    this.dialog?.showModal();
    this.renderRoot.querySelector<HTMLElement>('.close')?.focus();
  }

  private readonly closed = () => {
    this.enlarged = null;
    this.opener?.focus();
    this.opener = null;
  };

  /** Escape closes the dialog (the browser does that), not the panel around it. */
  private readonly keydown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') e.stopPropagation();
  };

  /** A click on the backdrop lands on the dialog itself; the box inside takes every other. */
  private readonly backdrop = (e: MouseEvent) => {
    if (e.target === this.dialog) (e.target as HTMLDialogElement).close();
  };
}
