import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { attentionOf, type Attention } from '../../../api/src/shared/attention.ts';
import { excerptOf } from '../../../api/src/shared/excerpt.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import type { ConversationView, StreamingReply } from '../state/types.ts';
import type { Messages } from '../i18n/en.ts';
import { latestConversation } from './landing.ts';
import { styles } from './inbox.styles.ts';

const STATE_TEXT: Record<Attention, (m: Messages) => string> = {
  live: (m) => m.live,
  input_needed: (m) => m.inputNeeded,
  unviewed: (m) => m.newResponse,
  waiting: (m) => m.waitingForPerson,
  default: () => '',
};

/** Conversations that need the visitor: any attention state (waiting for a person included: it says where the answer will come from), or a failed latest reply. */
export function needingAttention(conversations: readonly ConversationView[]): ConversationView[] {
  return conversations.filter((c) => c.failed || attentionOf(c) !== 'default');
}

/**
 * The home view: every conversation that needs attention, with its excerpt (a live one
 * shows the reply as it streams, one waiting for input the question it asks); failed
 * replies show their error excerpt and a Retry. Below, "Continue" on the latest
 * conversation and an explicit "New conversation" (a visitor with none yet: "Start a
 * conversation"). On a page whose origin the site does not allow (`unavailable`) it says
 * chat is unavailable here instead.
 *
 * @event heed-select - Open a conversation: `detail: { conversationId }`.
 * @event heed-retry - Retry a failed reply: `detail: { conversationId }`.
 * @event heed-new-conversation - Start a conversation (the visitor chose a new one).
 *
 * @csspart item - One conversation; `data-state` holds its attention state.
 */
export class HeedInbox extends HeedElement {
  static override styles = styles;
  static override properties = {
    conversations: { attribute: false },
    replies: { attribute: false },
    unavailable: { type: Boolean },
  };

  conversations: readonly ConversationView[] = [];
  replies: ReadonlyMap<string, StreamingReply> = new Map();
  /** the site refused this page's origin: no visitor token, nothing to show or send */
  unavailable = false;

  override render() {
    if (this.unavailable) return html`<p class="unavailable">${t.chatUnavailable}</p>`;
    const list = needingAttention(this.conversations);
    const latest = latestConversation(this.conversations);
    return html`<h3>${t.needsAttention}</h3>
      ${
        list.length === 0
          ? html`<p class="empty">${t.caughtUp}</p>`
          : html`<ul>
            ${repeat(
              list,
              (c) => c.id,
              (c) => this.item(c),
            )}
          </ul>`
      }
      ${latest ? this.continueLatest(latest) : html`<button class="start" @click=${this.startNew}>${t.start}</button>`}`;
  }

  /** "Continue" the latest conversation, or start a new one: a new thread is always the visitor's explicit choice. */
  private continueLatest(c: ConversationView) {
    return html`<section class="latest" aria-labelledby="latest-heading">
      <h3 id="latest-heading">${t.latestConversation}</h3>
      <p class="latest-title" id="latest-title" dir="auto">${c.title ?? t.newConversation}</p>
      <div class="actions">
        <button class="continue" aria-describedby="latest-title" @click=${() => this.emit('heed-select', { conversationId: c.id })}>${t.continue}</button>
        <button class="start" @click=${this.startNew}>${t.newConversation}</button>
      </div>
    </section>`;
  }

  private readonly startNew = () => this.emit('heed-new-conversation');

  private item(c: ConversationView) {
    const state = attentionOf(c);
    const streaming = this.replies.get(c.id)?.text;
    // an open question is what the visitor needs to see: it replaces the excerpt
    const excerpt =
      state === 'live' && streaming
        ? excerptOf(streaming)
        : state === 'input_needed' && c.inputRequest
          ? c.inputRequest.question
          : c.excerpt;
    const failed = c.failed && state !== 'live';
    return html`<li part="item" data-state=${state} class=${failed ? 'failed' : ''}>
      <button class="open" dir="auto" @click=${() => this.emit('heed-select', { conversationId: c.id })}>${c.title ?? t.newConversation}</button>
      <span class="state">${failed ? t.replyFailed : STATE_TEXT[state](t)}</span>
      ${excerpt ? html`<p class="excerpt" dir="auto">${excerpt}</p>` : nothing}
      ${failed ? html`<button class="retry" @click=${() => this.emit('heed-retry', { conversationId: c.id })}>${t.retry}</button>` : nothing}
    </li>`;
  }
}
