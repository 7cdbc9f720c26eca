import { html, nothing } from 'lit';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { paperclipIcon, sendIcon } from '../shared/panel-icons.ts';
import { loadAttach } from '../attach/load.ts';
import type { HeedAttachmentTray } from '../attach/attachment-tray.component.ts';
import type { ComposerAttach } from '../attach/tray-host.ts';
import type { AttachmentSettings, AttachmentView } from '../state/types.ts';
import { styles } from './composer.styles.ts';

/** The picker's `accept` for the site's kinds: images by type, PDF and text by their endings. */
const accept = (s: AttachmentSettings) => s.kinds.map((k) => (k === 'pdf' ? '.pdf' : k === 'text' ? '.txt' : `image/${k}`)).join();

/**
 * Where the visitor writes: a textbox named "Message" and a "Send" button. Enter sends,
 * Shift+Enter starts a new line. It stays usable while a reply streams — a message sent
 * then is answered by the next reply.
 *
 * Where the site takes attachments (`attach`, its settings with kinds), an "Attach files" button
 * opens the file picker, and files pasted into the box (a screenshot) attach too; the panel hands
 * it its drag events (`drag`), so files dropped anywhere on it attach. Everything else about files
 * loads with the first of these (`attach/load.ts`): the list of files above the box, their
 * uploads and refusals, the drop zone, and the send that waits for uploads
 * (`<heed-attachment-tray>`, which calls `deliver`). A message may be files alone.
 *
 * @event heed-typing - The visitor typed (each change of a non-empty box); no detail.
 * @event heed-send - The visitor sent a message: `detail: { content }`, with `attachments` (uploaded
 * files' views) and their `conversationId` when files go with it. The box (and its files) then
 * clear, unless a listener cancels the event (the message cannot go out from here: words and files stay).
 *
 * @csspart form - The bar.
 * @csspart input - The textarea.
 * @csspart send - The send button.
 * @csspart attach - The "Attach files" button.
 *
 * @cssproperty --heed-input-background - Textarea background.
 */
export class HeedComposer extends HeedElement {
  static override styles = styles;
  static override properties = {
    placeholder: {},
    attach: { attribute: false },
    attaching: { state: true },
  };

  /** "Write a message…" in the widget's language unless set (the panel sets the answer prompt) */
  placeholder?: string;
  /** attaching files, where the site takes them */
  attach: ComposerAttach | null = null;
  /** the files' code is in: the list of files renders */
  private attaching = false;
  /** what the send button says instead of "Send" (the tray sets it while a send waits for uploads) */
  sendLabel: string | null = null;
  private get textarea(): HTMLTextAreaElement {
    return this.renderRoot?.querySelector('textarea') as HTMLTextAreaElement;
  }
  private get picker(): HTMLInputElement | null {
    return this.renderRoot?.querySelector<HTMLInputElement>('input');
  }
  private get tray(): HeedAttachmentTray | null {
    return this.renderRoot?.querySelector<HeedAttachmentTray>('heed-attachment-tray');
  }

  override render() {
    const on = this.attach?.settings.kinds.length ? this.attach.settings : null;
    return html`<form part="form" @submit=${this.submit}>
      ${this.attaching ? html`<heed-attachment-tray .attach=${this.attach}></heed-attachment-tray>` : nothing}
      ${on ? html`<button part="attach" class="attach" type="button" @click=${this.pick}>${paperclipIcon()}<span class="sr-only">${t.attachFiles}</span></button><input type="file" multiple hidden accept=${accept(on)} @change=${this.files} />` : nothing}
      <textarea part="input" rows="1" aria-label=${t.message} placeholder=${this.placeholder ?? t.writeMessage} maxlength="4000" @keydown=${this.keydown} @input=${this.input} @paste=${this.files}></textarea>
      <button part="send" type="submit">${sendIcon()}<span class="sr-only">${this.sendLabel ?? t.send}</span></button>
    </form>`;
  }

  override focus(options?: FocusOptions) {
    this.textarea?.focus(options);
  }

  /**
   * The panel's drag events: files dragged over it show where they go (the tray's drop zone, read
   * out) and attach when dropped.
   */
  drag(e: DragEvent): void {
    const data = e.dataTransfer;
    if (!this.attach?.settings.kinds.length || !data?.types.includes('Files')) return;
    e.preventDefault(); // lets the files drop here, rather than the browser opening them
    const files = [...data.files]; // readable during the drop event only
    void this.withTray((tray) => tray.drag(e.type, files));
  }

  /** Runs `fn` with the tray, once the files' code is in (the tray renders from then on). */
  private async withTray(fn: (tray: HeedAttachmentTray) => unknown): Promise<void> {
    try {
      await loadAttach();
      this.attaching = true;
      await this.updateComplete;
      await fn(this.tray!);
    } catch {
      // the files' code did not load (offline): nothing was attached
    }
  }

  /**
   * Sends the words in the box, with `attachments` when files go (`conversationId`: theirs);
   * nothing without either. The box clears, unless a listener cancelled the send (then false).
   */
  deliver(attachments?: AttachmentView[], conversationId?: string): boolean {
    const text = this.textarea.value;
    const content = text.trim() ? text : '';
    if (!content && !attachments?.length) return false;
    if (!this.emit('heed-send', { content, attachments, conversationId })) return false;
    this.textarea.value = '';
    return true;
  }

  private pick() {
    void loadAttach(); // on its way while the visitor picks
    this.picker?.click();
  }

  /**
   * Files picked, or on the clipboard (a screenshot, files copied in a file manager), attach; text
   * pastes as ever. A spreadsheet or a word processor puts a picture of the selection beside its
   * text and HTML: that paste is the text.
   */
  private files(e: Event) {
    const data = (e as ClipboardEvent).clipboardData;
    const files = [...(data ?? this.picker!).files!];
    if (!files.length || !this.attach?.settings.kinds.length || (data?.types.includes('text/plain') && data.types.includes('text/html')))
      return;
    e.preventDefault();
    this.picker!.value = ''; // the same file can be picked again
    void this.withTray((tray) => tray.add(files));
  }

  private keydown(e: KeyboardEvent) {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    this.send();
  }

  private input() {
    if (this.textarea.value.trim()) this.emit('heed-typing');
  }

  private submit(e: Event) {
    e.preventDefault();
    this.send();
  }

  /** With files, the tray sends (it waits for their uploads first). */
  private send() {
    if (this.tray?.count) void this.tray.send();
    else this.deliver();
  }
}
