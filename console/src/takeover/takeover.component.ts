import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { ConsoleElement } from '../shared/console-element.ts';
import type { Holder } from '../state/contract.ts';
import { styles } from './takeover.styles.ts';

/** The server's bound on one operator message. */
export const REPLY_MAX = 4000;

/**
 * The operator's side of a conversation: "Take over" while the assistant answers it; once
 * this operator holds it, a "Reply" box with "Send" (Control+Enter sends too) and "Hand back";
 * while another operator holds it, who does ("Held by Ana"), no reply box and no "Take over"
 * (the server would refuse it: `held_by_other`), but "Hand back" for an owner (an owner may
 * return a conversation a colleague left held). A private conversation cannot be taken over
 * (the server refuses that too), so it offers nothing. Refusals show inline with the server's
 * sentence (it names the holder); every refusal also asks the transcript to reload, so the
 * hold it shows is the server's.
 *
 * A draft survives the transcript's live reloads (the box is never re-bound while typing),
 * and keeps its `clientMessageId` until the server accepts it, so a resend after a lost
 * answer is the same message, not a second one.
 *
 * @event heed-conversation-changed - Taken over, replied or handed back: reload the transcript.
 */
export class HeedConsoleTakeover extends ConsoleElement {
  static override styles = styles;

  @property() conversationId = '';
  @property({ attribute: false }) heldBy: Holder | null = null;
  @property({ type: Boolean }) isPrivate = false;
  /** the assistant asked for a person: the visitor waits for someone to take over */
  @property({ type: Boolean }) waiting = false;
  @state() private busy: 'take' | 'send' | 'hand' | null = null;
  @state() private error: string | null = null;
  @query('textarea') private box?: HTMLTextAreaElement;
  private draftId: string | null = null;
  /** where focus goes once the hold the transcript shows has changed (the pressed button is gone) */
  private focusNext: 'reply' | 'take' | null = null;

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
    if (this.isPrivate) return html`<p class="muted">A private conversation cannot be taken over.</p>`;
    const mine = this.heldBy !== null && this.heldBy.id === this.me?.id;
    const error = this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing;
    if (!this.heldBy) {
      return html`<div class="bar">
          <p>${this.waiting ? 'The visitor is waiting for a person.' : 'The assistant answers this conversation.'}</p>
          <button type="button" class="primary take" ?disabled=${this.busy !== null} @click=${this.takeOver}>Take over</button>
        </div>
        ${error}`;
    }
    const name = this.heldBy.name || (mine ? this.me?.name : null) || 'another operator';
    const held = html`<p class="held">Held by ${name}${mine ? html`<span class="muted"> (you)</span>` : nothing}</p>`;
    if (!mine) {
      return html`<div class="bar">
          ${held}
          ${this.isOwner ? html`<button type="button" ?disabled=${this.busy !== null} @click=${this.handBack}>Hand back</button>` : nothing}
        </div>
        ${error}`;
    }
    return html`<div class="bar">
        ${held}
        <button type="button" ?disabled=${this.busy !== null} @click=${this.handBack}>Hand back</button>
      </div>
      <form class="reply" @submit=${this.send}>
        <label for="reply">Reply</label>
        <textarea id="reply" name="reply" rows="3" maxlength=${REPLY_MAX} aria-describedby="reply-hint" @keydown=${this.keydown}></textarea>
        <span id="reply-hint" class="hint">The visitor sees it labelled with your name. Control+Enter sends.</span>
        ${error}
        <div class="row-actions"><button type="submit" class="primary" ?disabled=${this.busy !== null}>Send</button></div>
      </form>`;
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
    if (!box || !text) {
      this.error = 'Write a reply first.';
      box?.focus();
      return;
    }
    this.draftId ??= crypto.randomUUID();
    const clientMessageId = this.draftId;
    const sent = await this.act(
      'send',
      () => this.api.reply({ conversationId: this.conversationId, text, clientMessageId }),
      'Reply sent.',
    );
    if (!sent) return;
    this.draftId = null;
    box.value = '';
    box.focus();
  }

  private keydown(e: KeyboardEvent) {
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
