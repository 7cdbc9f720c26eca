import { html, nothing } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { HeedElement } from '../shared/heed-element.ts';
import { closeIcon } from '../shared/icons.ts';
import { fileIcon, retryIcon } from './attach-icons.ts';
import { fileSize } from './file-size.ts';
import { refusalText } from './refusal.ts';
import { at } from './strings.ts';
import { drawThumbnail } from './thumbnail.ts';
import type { ComposerAttach, TrayHost } from './tray-host.ts';
import { type Upload, type UploadNews, UploadQueue } from './upload-queue.ts';
import { styles } from './attachment-tray.styles.ts';

/**
 * The files waiting to go with the visitor's next message, above the composer's box: a list
 * ("Files to send") of chips, each with a thumbnail (an image drawn into a canvas, else a file
 * icon), its name and size, a progress bar while it uploads ("Uploading photo.png", its value in
 * percent), why it cannot go when refused, and "Remove photo.png" (which aborts its upload). A
 * file that broke off on the way offers "Try photo.png again". Each conversation has its own
 * files; the tray shows the open one's (`attach.conversationId`) and hides itself when there are
 * none. What happens to a file is said through the panel's status region (`heed-announce`).
 *
 * It lives in the composer's shadow root (its `TrayHost`), which hands it the files picked or
 * pasted (`add`) and the panel's drag events (`drag`: a drop zone covers the panel while files
 * are dragged over it, "Drop files here to attach them"), and lets it send when files are
 * attached (`send`): while uploads run, the send waits, and the send button and a line say so
 * ("Sending once the files are uploaded…"); a file refused meanwhile stops the send, so the
 * visitor reads why first. The uploaded files go with the words (or alone); their chips go, a
 * failed one stays.
 *
 * @event heed-announce - Something to read out: `detail: { text }` (the panel's status region says it).
 *
 * @csspart attachments - The list of files.
 * @csspart attachment - One file's chip (`data-state`: uploading, waiting, done, refused, failed).
 * @csspart drop-zone - Over the panel while files are dragged onto it.
 */
export class HeedAttachmentTray extends HeedElement {
  static override styles = styles;
  static override properties = {
    attach: { attribute: false },
    waiting: { state: true },
    dropping: { state: true },
  };

  /** the composer's attaching: settings, uploads, the open conversation */
  attach: ComposerAttach | null = null;
  /** a send waits for the uploads */
  private waiting = false;
  /** files are dragged over the panel: the drop zone shows */
  private dropping = false;
  /** drag enters minus leaves over the panel's elements (a drag passes through several) */
  private drags = 0;
  /** images the browser could not decode: they show a file icon */
  private readonly undecodable = new WeakSet<Upload>();
  private queue?: UploadQueue;

  /** How many files the open conversation has here, whatever their state. */
  get count(): number {
    return this.files().length;
  }

  /** The conversation whose files show. */
  private get conversationId(): string | null {
    return this.attach?.conversationId ?? null;
  }

  /** The composer around it. */
  private get host(): TrayHost {
    return (this.getRootNode() as ShadowRoot).host as TrayHost;
  }

  /** Attaches files to the conversation a send would go to: each is checked, then uploads at once. */
  async add(files: readonly File[]): Promise<void> {
    const attach = this.attach;
    const id = await attach?.target();
    if (attach && id) this.uploads(attach).add(id, files, attach.settings);
  }

  /**
   * One of the panel's drag events with files (the composer hands them on): the drop zone shows,
   * and is read out, from the first enter to the last leave; dropped, the files attach.
   */
  drag(type: string, files: readonly File[]): Promise<void> | undefined {
    this.drags = type === 'drop' ? 0 : Math.max(0, this.drags + (type === 'dragenter' ? 1 : type === 'dragleave' ? -1 : 0));
    if (this.drags && !this.dropping) this.announce(at().dropFiles);
    this.dropping = this.drags > 0;
    return type === 'drop' ? this.add(files) : undefined;
  }

  /**
   * Sends the composer's words with the open conversation's files, once their uploads are done.
   * A file refused or failed meanwhile stops the send (the visitor reads why, and sends again).
   */
  async send(): Promise<void> {
    const queue = this.queue;
    const id = this.conversationId;
    if (this.waiting || !queue || !id) return;
    if (queue.busy(id)) this.wait(true);
    const files = await queue.settle(id);
    this.wait(false);
    if (files && this.host.deliver(files, id)) queue.take(id);
  }

  /** A send waits for uploads (or stops waiting): the send button, a line and the status region say so. */
  private wait(waiting: boolean) {
    this.waiting = waiting;
    this.host.sendLabel = waiting ? at().sendWhenUploaded : null;
    this.host.requestUpdate();
    if (waiting) this.announce(at().sendWhenUploaded);
  }

  protected override willUpdate() {
    this.hidden = !this.count && !this.dropping;
  }

  override render() {
    const files = this.files();
    // the zone covers the whole panel: nothing between here and the panel is positioned
    const zone = this.dropping ? html`<div class="drop" part="drop-zone">${at().dropFiles}</div>` : nothing;
    if (!files.length) return zone;
    return html`${zone}<ul part="attachments" aria-label=${at().filesToSend}>
        ${repeat(
          files,
          (u) => u.key,
          (u) => this.chip(u),
        )}
      </ul>
      ${this.waiting ? html`<p class="note">${at().sendWhenUploaded}</p>` : nothing}`;
  }

  private chip(u: Upload) {
    const s = at();
    const name = u.file.name;
    const image = u.file.type.startsWith('image/') && !this.undecodable.has(u);
    return html`<li class="chip" part="attachment" data-state=${u.state}>
      ${image ? html`<canvas width="80" height="80" aria-hidden="true" ${ref(this.thumbnail(u))}></canvas>` : html`<span class="icon">${fileIcon()}</span>`}
      <span class="about">
        <span class="name" dir="auto" title=${name}>${name}</span>
        <span class="size">${fileSize(u.file.size)}</span>
        ${
          u.state === 'uploading'
            ? html`<progress max="100" value=${Math.min(100, Math.round((u.sent / (u.file.size || 1)) * 100))} aria-label=${s.uploading(name)}></progress>`
            : nothing
        }
        ${u.state === 'waiting' ? html`<span class="why">${s.waiting}</span>` : nothing}
        ${u.refusal ? html`<span class="why" dir="auto">${refusalText(name, u.refusal, this.attach?.settings.kinds ?? [])}</span>` : nothing}
      </span>
      ${
        u.state === 'failed'
          ? html`<button type="button" class="icon-button retry" @click=${() => this.queue?.retry(u)}>${retryIcon()}<span class="sr-only">${s.retryUpload(name)}</span></button>`
          : nothing
      }
      <button type="button" class="icon-button remove" @click=${() => this.removeFile(u)}>${closeIcon()}<span class="sr-only">${s.remove(name)}</span></button>
    </li>`;
  }

  /** The ref that draws a chip's image once its canvas exists (one callback per file, so once per canvas). */
  private readonly thumbnails = new WeakMap<Upload, (el?: Element) => void>();
  private thumbnail(u: Upload) {
    let draw = this.thumbnails.get(u);
    if (!draw) {
      draw = (el?: Element) => {
        if (el instanceof HTMLCanvasElement)
          void drawThumbnail(el, u.file).then((ok) => ok || (this.undecodable.add(u), this.requestUpdate()));
      };
      this.thumbnails.set(u, draw);
    }
    return draw;
  }

  /** Removes a file; focus goes to the chip that takes its place, else back to the box. */
  private async removeFile(u: Upload) {
    const index = this.files().indexOf(u);
    this.queue?.remove(u);
    await this.updateComplete;
    const buttons = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('.remove')];
    const next = buttons[Math.min(index, buttons.length - 1)];
    (next ?? this.host).focus();
  }

  private files(): Upload[] {
    return this.queue?.of(this.conversationId) ?? [];
  }

  private uploads(attach: ComposerAttach): UploadQueue {
    this.queue ??= new UploadQueue(
      attach.api,
      () => this.requestUpdate(),
      (n) => this.tellNews(n),
    );
    return this.queue;
  }

  private tellNews(n: UploadNews): void {
    const s = at();
    const name = n.upload.file.name;
    if (n.news === 'ready') this.announce(s.ready(name));
    else if (n.news === 'waiting') this.announce(s.rateLimited(name, n.seconds));
    else this.announce(refusalText(name, n.upload.refusal!, this.attach?.settings.kinds ?? []));
  }

  private announce(text: string): void {
    this.emit('heed-announce', { text });
  }
}
