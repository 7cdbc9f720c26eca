import { html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { attentionOf, type Attention } from '../../../api/src/shared/attention.ts';
import { excerptOf } from '../../../api/src/shared/excerpt.ts';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import type { ConversationView, StreamingReply } from '../state/types.ts';
import type { Messages } from '../i18n/en.ts';
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
 * replies show their error excerpt and a Retry.
 *
 * @event heed-select - Open a conversation: `detail: { conversationId }`.
 * @event heed-retry - Retry a failed reply: `detail: { conversationId }`.
 * @event heed-new-conversation - Start a conversation (from the empty state).
 *
 * @csspart item - One conversation; `data-state` holds its attention state.
 */
export class HeedInbox extends HeedElement {
  static override styles = styles;

  @property({ attribute: false }) conversations: readonly ConversationView[] = [];
  @property({ attribute: false }) replies: ReadonlyMap<string, StreamingReply> = new Map();

  override render() {
    const list = needingAttention(this.conversations);
    return html`<h3>${t.needsAttention}</h3>
      ${list.length === 0
        ? html`<p class="empty">${t.caughtUp}</p>
            <button class="start" @click=${() => this.emit('heed-new-conversation')}>${t.start}</button>`
        : html`<ul>
            ${repeat(list, (c) => c.id, (c) => this.item(c))}
          </ul>`}`;
  }

  private item(c: ConversationView) {
    const state = attentionOf(c);
    const streaming = this.replies.get(c.id)?.text;
    // an open question is what the visitor needs to see: it replaces the excerpt
    const excerpt = state === 'live' && streaming ? excerptOf(streaming) : state === 'input_needed' && c.inputRequest ? c.inputRequest.question : c.excerpt;
    const failed = c.failed && state !== 'live';
    return html`<li part="item" data-state=${state} class=${failed ? 'failed' : ''}>
      <button class="open" @click=${() => this.emit('heed-select', { conversationId: c.id })}>${c.title ?? t.newConversation}</button>
      <span class="state">${failed ? t.replyFailed : STATE_TEXT[state](t)}</span>
      ${excerpt ? html`<p class="excerpt">${excerpt}</p>` : nothing}
      ${failed ? html`<button class="retry" @click=${() => this.emit('heed-retry', { conversationId: c.id })}>${t.retry}</button>` : nothing}
    </li>`;
  }
}
