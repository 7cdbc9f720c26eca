import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import '../reply-attachments/reply-attachments.ts';
import type { HeedReplyAttachments } from '../reply-attachments/reply-attachments.component.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import { insertCanned, matchCanned, slashQuery } from '../state/canned-match.ts';
import type { CannedReply, Holder } from '../state/contract.ts';
import { styles } from './takeover.styles.ts';

/** The server's bound on one operator message, and on a note. */
export const REPLY_MAX = 4000;

type Mode = 'reply' | 'note';

/**
 * The operator's side of a conversation: "Take over" while the assistant answers it; once
 * this operator holds it, a box that writes a reply to the visitor (Control+Enter sends) or an
 * internal note, and "Hand back"; while another operator holds it, who does ("Held by Ana"),
 * and "Hand back" for an owner (an owner may return a conversation a colleague left held).
 * Notes are the team's only: whoever holds the conversation, anyone of its site may add one.
 * A private conversation cannot be taken over (the server refuses that too). Refusals show
 * inline with the server's sentence (it names the holder); every refusal also asks the
 * transcript to reload, so the hold it shows is the server's.
 *
 * Files: a reply (never a note) carries files attached by "Attach files", pasted into the box or
 * dropped on it (`heed-reply-attachments` uploads them and says why one was refused); a reply
 * of files alone is fine. It is sent once they have all uploaded, with their ids.
 *
 * Canned replies: typing `/` at the start of a word lists the site's saved answers matching
 * what follows; the arrow keys choose, Enter or Tab inserts, Escape closes the list.
 *
 * A draft survives the transcript's live reloads (the box is never re-bound while typing),
 * and keeps its `clientMessageId` until the server accepts it, so a resend after a lost
 * answer is the same message, not a second one.
 *
 * @event heed-conversation-changed - Taken over, replied, noted or handed back: reload the transcript.
 */
export class HeedConsoleTakeover extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  /** the conversation's site, whose canned replies `/` lists */
  @property() siteId = '';
  @property({ attribute: false }) heldBy: Holder | null = null;
  @property({ type: Boolean }) isPrivate = false;
  /** the assistant asked for a person: the visitor waits for someone to take over */
  @property({ type: Boolean }) waiting = false;
  @state() private busy: 'take' | 'send' | 'hand' | null = null;
  @state() private error: string | null = null;
  @state() private mode: Mode = 'reply';
  @state() private menu: CannedReply[] = [];
  @state() private active = 0;
  /** files are dragged over the box */
  @state() private dragging = false;
  @query('textarea') private box?: HTMLTextAreaElement;
  @query('heed-reply-attachments') private attached?: HeedReplyAttachments;
  private canned: Promise<CannedReply[]> | null = null;
  private draftId: string | null = null;
  /** where focus goes once the hold the transcript shows has changed (the pressed button is gone) */
  private focusNext: 'reply' | 'take' | null = null;

  private get mine(): boolean {
    return this.heldBy !== null && this.heldBy.id === this.me?.id;
  }

  /** A reply needs the hold; otherwise the box writes a note. */
  private get writing(): Mode {
    return this.mine ? this.mode : 'note';
  }

  override updated() {
    const target =
      this.focusNext === 'reply'
        ? this.box
        : this.focusNext === 'take'
          ? this.renderRoot.querySelector<HTMLButtonElement>('button.take')
          : null;
    if (!target) return;
    this.focusNext = null;
    target.focus();
  }

  override render() {
    const error = this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing;
    return html`<div class="bar">${this.holdBar()}</div>
      ${error} ${this.composer()}`;
  }

  private holdBar() {
    if (this.isPrivate) return html`<p class="muted">A private conversation cannot be taken over.</p>`;
    if (!this.heldBy) {
      return html`<p>${this.waiting ? 'The visitor is waiting for a person.' : 'The assistant answers this conversation.'}</p>
        <button type="button" class="primary take" ?disabled=${this.busy !== null} @click=${this.takeOver}>Take over</button>`;
    }
    const name = this.heldBy.name || (this.mine ? this.me?.name : null) || 'another operator';
    const held = html`<p class="held">Held by ${name}${this.mine ? html`<span class="muted"> (you)</span>` : nothing}</p>`;
    const mayHandBack = this.mine || this.isOwner;
    return html`${held}
      ${mayHandBack ? html`<button type="button" ?disabled=${this.busy !== null} @click=${this.handBack}>Hand back</button>` : nothing}`;
  }

  private composer() {
    const mode = this.writing;
    const open = this.menu.length > 0;
    return html`<form
      class="compose"
      data-mode=${mode}
      data-dragging=${this.dragging ? 'true' : nothing}
      @submit=${this.send}
      @keydown=${this.keepFiles}
      @dragover=${this.dragOver}
      @dragleave=${this.dragLeave}
      @drop=${this.dropped}
    >
      ${this.mine ? this.modes(mode) : nothing}
      <label for="compose">${mode === 'reply' ? 'Reply' : 'Note'}</label>
      <div class="box">
        <textarea
          id="compose"
          name="text"
          rows="3"
          maxlength=${REPLY_MAX}
          aria-describedby="compose-hint"
          aria-autocomplete="list"
          aria-controls=${open ? 'canned-menu' : nothing}
          aria-activedescendant=${open ? `canned-${this.active}` : nothing}
          @keydown=${this.keydown}
          @input=${this.typed}
          @blur=${this.closeMenu}
          @paste=${this.pasted}
        ></textarea>
        ${open ? this.cannedMenu() : nothing}
      </div>
      ${
        // kept (hidden) while the holder writes a note: switching back finds the files still there
        this.mine
          ? html`<heed-reply-attachments .api=${this.api} .me=${this.me} .conversationId=${this.conversationId} ?hidden=${mode !== 'reply'}></heed-reply-attachments>`
          : nothing
      }
      <span id="compose-hint" class="hint">${
        mode === 'reply'
          ? 'The visitor sees it labelled with your name. Type / for a canned reply. Control+Enter sends.'
          : 'Only your team sees notes: never the visitor, never the assistant. Control+Enter adds it.'
      }</span>
      <div class="row-actions"><button type="submit" class="primary" ?disabled=${this.busy !== null}>${mode === 'reply' ? 'Send' : 'Add note'}</button></div>
    </form>`;
  }

  private modes(mode: Mode) {
    const pick = (m: Mode) => () => {
      this.mode = m;
      this.box?.focus();
    };
    return html`<div class="modes" role="radiogroup" aria-label="Write">
      <label class="inline"><input type="radio" name="mode" value="reply" .checked=${mode === 'reply'} @change=${pick('reply')} /> Reply to visitor</label>
      <label class="inline"><input type="radio" name="mode" value="note" .checked=${mode === 'note'} @change=${pick('note')} /> Internal note</label>
    </div>`;
  }

  private cannedMenu() {
    return html`<ul id="canned-menu" class="canned" role="listbox" aria-label="Canned replies">
      ${this.menu.map(
        (r, i) => html`<li
          id=${`canned-${i}`}
          role="option"
          aria-selected=${i === this.active ? 'true' : 'false'}
          @mousedown=${(e: Event) => {
            e.preventDefault();
            this.insert(r);
          }}
        ><strong>/${r.shortcut}</strong> <span>${r.content}</span></li>`,
      )}
    </ul>`;
  }

  private async typed() {
    const box = this.box;
    if (!box) return;
    const q = slashQuery(box.value, box.selectionStart ?? box.value.length);
    if (!q || !this.siteId) return this.closeMenu();
    this.canned ??= this.api.cannedReplies(this.siteId).catch((err) => {
      this.canned = null;
      this.failed(err);
      return [];
    });
    const found = matchCanned(await this.canned, q.query);
    const opening = this.menu.length === 0 && found.length > 0;
    this.menu = found;
    this.active = 0;
    if (opening)
      this.announce(`${found.length === 1 ? 'One canned reply' : `${found.length} canned replies`}: arrow keys choose, Enter inserts.`);
  }

  private readonly closeMenu = () => {
    this.menu = [];
  };

  private insert(reply: CannedReply) {
    const box = this.box;
    if (!box) return;
    const caret = box.selectionStart ?? box.value.length;
    const q = slashQuery(box.value, caret);
    if (!q) return this.closeMenu();
    const next = insertCanned(box.value, q.start, caret, reply.content);
    box.value = next.text;
    box.setSelectionRange(next.caret, next.caret);
    this.closeMenu();
    this.announce(`Inserted /${reply.shortcut}.`);
  }

  private takeOver() {
    return this.act(
      'take',
      () => this.api.takeOver(this.conversationId),
      'You hold this conversation: the assistant stays quiet until you hand it back.',
    );
  }

  private handBack() {
    return this.act('hand', () => this.api.handBack(this.conversationId), 'Handed back: the assistant answers again.');
  }

  private async send(e: SubmitEvent) {
    e.preventDefault();
    const box = this.box;
    const text = box?.value.trim() ?? '';
    const mode = this.writing;
    const files = mode === 'reply' ? this.attached : undefined;
    if (files?.uploading) {
      this.error = 'Wait until the files have uploaded, then send.';
      return;
    }
    const attachmentIds = files?.ids ?? [];
    if (!box || (!text && attachmentIds.length === 0)) {
      this.error = mode === 'reply' ? 'Write a reply first.' : 'Write a note first.';
      box?.focus();
      return;
    }
    let sent: boolean;
    if (mode === 'note') {
      sent = await this.act('send', () => this.api.addNote(this.conversationId, text), 'Note added.');
    } else {
      this.draftId ??= crypto.randomUUID();
      const input = {
        conversationId: this.conversationId,
        text,
        clientMessageId: this.draftId,
        ...(attachmentIds.length > 0 ? { attachmentIds } : {}),
      };
      sent = await this.act('send', () => this.api.reply(input), 'Reply sent.');
      if (sent) {
        this.draftId = null;
        files?.clear();
      }
    }
    if (!sent) return;
    box.value = '';
    box.focus();
  }

  /**
   * Files pasted into the box go with the reply. Words copied from an office app come with a
   * picture of themselves: when the clipboard holds words that are not just the files' names,
   * the words are what is pasted.
   */
  private pasted(e: ClipboardEvent) {
    const files = [...(e.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    const words = e.clipboardData?.getData('text/plain').trim() ?? '';
    if (words && !files.some((f) => words.includes(f.name))) return;
    e.preventDefault();
    this.takeFiles(files);
  }

  /** Escape closes the conversation (the inbox), but never throws away files attached to a reply. */
  private keepFiles(e: KeyboardEvent) {
    if (e.key === 'Escape' && this.attached && (this.attached.uploading || this.attached.ids.length > 0)) e.preventDefault();
  }

  private dragOver(e: DragEvent) {
    if (!e.dataTransfer?.types.includes('Files')) return;
    // taken here: a file dropped beside the box would otherwise open in place of the console
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    this.dragging = true;
  }

  private dragLeave(e: DragEvent) {
    const form = e.currentTarget as HTMLElement;
    if (e.relatedTarget instanceof Node && form.contains(e.relatedTarget)) return;
    this.dragging = false;
  }

  private dropped(e: DragEvent) {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    this.dragging = false;
    this.takeFiles([...e.dataTransfer.files]);
  }

  private takeFiles(files: File[]) {
    if (this.writing !== 'reply' || !this.attached) {
      this.error = this.mine ? 'Notes take no files: choose “Reply to visitor” to send one.' : 'Take the conversation over to send files.';
      return;
    }
    this.error = null;
    this.attached.add(files);
  }

  private keydown(e: KeyboardEvent) {
    if (this.menu.length > 0) {
      const last = this.menu.length - 1;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        this.active = e.key === 'ArrowDown' ? (this.active >= last ? 0 : this.active + 1) : this.active <= 0 ? last : this.active - 1;
        return;
      }
      if ((e.key === 'Enter' && !(e.ctrlKey || e.metaKey)) || e.key === 'Tab') {
        e.preventDefault();
        this.insert(this.menu[this.active]!);
        return;
      }
      if (e.key === 'Escape') {
        // the menu closes; the conversation stays open
        e.preventDefault();
        e.stopPropagation();
        this.closeMenu();
        return;
      }
    }
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    this.renderRoot.querySelector('form')?.requestSubmit();
  }

  private async act(kind: 'take' | 'send' | 'hand', call: () => Promise<unknown>, done: string): Promise<boolean> {
    this.busy = kind;
    this.error = null;
    try {
      await call();
      this.announce(done);
      this.focusNext = kind === 'take' ? 'reply' : kind === 'hand' ? 'take' : null;
      if (kind === 'take') this.mode = 'reply';
      this.emit('heed-conversation-changed', { conversationId: this.conversationId });
      return true;
    } catch (err) {
      const text = this.failed(err);
      this.error = text.fields.text ?? text.message;
      // the hold moved under us: show the server's
      this.emit('heed-conversation-changed', { conversationId: this.conversationId });
      return false;
    } finally {
      this.busy = null;
    }
  }
}
