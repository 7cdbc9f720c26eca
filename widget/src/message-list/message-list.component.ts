import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { supersededFailures } from '../../../api/src/shared/superseded-failures.ts';
import { continuableReply } from '../../../api/src/shared/cut-short.ts';
import { linkableSource, type CitedSource } from '../../../api/src/shared/citations.ts';
import { keyed } from 'lit/directives/keyed.js';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import type { OpenQuestion } from '../state/open-question.ts';
import { sendingIn } from '../state/send-wait.ts';
import type { AttachmentView, MessageInputRequest, StreamingReply, ThreadMessage } from '../state/types.ts';
import { loadAttach } from '../attach/load.ts';
import { arrange, type ThreadItem } from './arrange.ts';
import { markdown } from './markdown.ts';
import { noticeText, provenanceText } from './provenance-text.ts';
import { styles } from './message-list.styles.ts';

/** The site's greeting and who says it (the assistant's name, when the site set one). */
export interface Greeting {
  text: string;
  name: string | null;
}

/** The greeting, styled as a reply: plain text (the site owner's words, never HTML). */
export const greetingBubble = (g: Greeting) =>
  html`<div class="message assistant greeting" dir="auto" part="message assistant-message greeting">
    ${g.name ? html`<span class="provenance">${g.name}</span>` : nothing}${g.text}
  </div>`;

/**
 * One thread: the visitor's messages (with a pending mark until the server has them, and
 * a countdown while the server asked them to wait: "Sending in 12 s"),
 * replies as sanitized Markdown, the reply that is streaming, and failed replies with a
 * Retry button (until a later reply answers them: `supersededFailures` hides them then). A reply that asks the visitor something shows its choices as buttons,
 * usable only while that question is the `question` still open and no answer is on its
 * way; when free text is allowed, a hint says the next message answers it. It keeps the
 * view pinned to the bottom while the visitor is there.
 *
 * The thread is a log (named "Messages") that screen readers follow: each message, notice and
 * finished reply is announced once as it arrives, with who said it ("You", the assistant's name)
 * as text. From the visitor's send until the reply streams, a typing row (three dots, still under
 * reduced motion) says a reply is coming; the streaming reply takes its place, silent to screen
 * readers (`aria-live="off"`, not every token), and the finished reply is announced. Opening
 * another conversation starts a new log, so its history is not read out.
 *
 * Messages that do not answer the visitor carry their provenance label as text, which also
 * names the bubble (an `article`) for screen readers: an operator's messages, on the reply
 * side ("Operator — Ana"), and unsolicited replies ("Because you viewed Pricing",
 * "Check-in", "From Acme"). Notices are centred lines, not bubbles ("Ana joined", "A person
 * from Acme will reply here — you can leave this page.").
 *
 * A reply the model cut short at its length limit says so; the newest one, while nothing
 * follows it and no reply streams, offers "Continue" (`continuableReply`). The visitor's request
 * for the rest is a message with no words: it is not drawn, and the rest arrives as the next reply.
 *
 * A reply that answers from the site's own pages lists the pages it cites under it ("Sources",
 * `[n]` as in its text, title and host), each opening in a new tab; only http(s) addresses.
 *
 * Files sent with a message (the visitor's, an operator's) show in its bubble: images as
 * thumbnails that enlarge, other files as links (`<heed-message-files>`, whose code loads the
 * first time a thread shows a file, `attach/load.ts`). A message of files alone has no empty bubble.
 *
 * The `end` slot takes what follows the last message: the panel's "Did this help?" prompt.
 *
 * @slot end - After the last message, inside the thread.
 * @event heed-retry - The visitor asked to retry a failed reply: `detail: { conversationId }`.
 * @event heed-continue - The visitor asked for the rest of a reply cut short: `detail: { conversationId, messageId }`.
 * @event heed-answer - The visitor picked a choice: `detail: { conversationId, requestId, content }`.
 *
 * @csspart message - Every message bubble (also `user-message`, `assistant-message`, `operator-message`, `streaming`).
 * @csspart provenance - A bubble's provenance label.
 * @csspart notice - A line about the conversation ("Ana joined").
 * @csspart sources - The list of pages a reply cites.
 * @csspart cut-short - The line under a reply cut short, with its Continue button.
 * @csspart choice - A choice button of a question.
 *
 * @cssproperty --heed-visitor-background - The visitor's bubbles (also `--heed-visitor-text`).
 * @cssproperty --heed-reply-background - Reply bubbles.
 * @cssproperty --heed-operator-background - An operator's bubbles (also `--heed-operator-border`).
 * @cssproperty --heed-failed-background - Failed replies (also `--heed-failed-border`).
 */
export class HeedMessageList extends HeedElement {
  static override styles = styles;
  static override properties = {
    messages: { attribute: false },
    reply: { attribute: false },
    loading: { type: Boolean },
    question: { attribute: false },
    greeting: { attribute: false },
    siteName: { attribute: false },
    assistantName: { attribute: false },
    replyComing: { type: Boolean },
    apiBase: { attribute: false },
  };

  messages: readonly ThreadMessage[] = [];
  reply?: StreamingReply;
  loading = false;
  /** the thread's open question (see `openQuestion`) */
  question: OpenQuestion | null = null;
  /**
   * The site's greeting, shown as the thread's first message (labelled with the assistant's
   * name). Drawn here only: it is not a stored message, so it never reaches the model and
   * never counts as unread.
   */
  greeting: Greeting | null = null;
  /** the site's name, for a handoff line or a server message whose label lacks it */
  siteName: string | null = null;
  /** who replies, named for screen readers; "Assistant" when the site set no name */
  assistantName: string | null = null;
  /** a reply is coming (see `replyComing`): the typing row shows until the reply streams */
  replyComing = false;
  /** the API's base URL: a file's address is relative to it */
  apiBase = '';

  private pinned = true;
  /** the reply that may be continued now, as of the last render */
  private continuable: string | null = null;
  /** replies cut short whose rest the visitor already asked for */
  private continued = new Set<string>();
  /** re-renders the countdown of sends that wait, once a second while any does */
  private tick?: ReturnType<typeof setTimeout>;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('scroll', this.onScroll, { passive: true });
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.removeEventListener('scroll', this.onScroll);
    clearTimeout(this.tick);
  }

  override render() {
    // a failed reply that a later reply answered is replaced by that answer: no dead Retry remains
    const superseded = supersededFailures(this.messages);
    this.continuable = this.reply ? null : continuableReply(this.messages);
    this.continued = continuedReplies(this.messages);
    const shown = this.messages.filter((m) => !superseded.has(m.id) && m.provenance !== 'continue');
    const items = arrange(shown, this.reply);
    if (!this.reply && this.replyComing) items.push({ kind: 'coming' });
    const greeting = this.greeting && !this.loading ? greetingBubble(this.greeting) : nothing;
    if (items.length === 0 && greeting === nothing) return html`<p class="empty">${this.loading ? t.loading : t.emptyThread}</p>`;
    // a new log for each conversation: opening one must not read its whole history out
    return keyed(
      this.messages[0]?.conversationId ?? '',
      html`<div class="list" role="log" aria-label=${t.thread} aria-busy=${this.loading ? 'true' : 'false'}>
        ${greeting}${repeat(items, key, (item) => this.item(item))}
        <slot name="end" @slotchange=${this.onEndChange}></slot>
      </div>`,
    );
  }

  override updated() {
    if (this.pinned) this.scrollTop = this.scrollHeight;
    clearTimeout(this.tick);
    if (this.messages.some((m) => m.pending && m.retryAt)) this.tick = setTimeout(() => this.requestUpdate(), 1000);
  }

  private item(item: ThreadItem) {
    if (item.kind !== 'message') {
      // one element from the typing row to the end of the stream (same key): it grows in place
      const text = item.kind === 'streaming' ? item.reply.text : '';
      return html`<div class="message assistant" dir="auto" part="message assistant-message streaming" aria-live="off" aria-busy="true">
        ${text ? html`<div class="md" ${markdown(text)}></div>` : this.typingDots()}
      </div>`;
    }
    const m = item.message;
    if (m.role === 'user') {
      // the one refusal the queue records is "Not sent" (thread-sync.ts); it shows in the widget's language
      const mark = m.sendError ? t.notSent : m.pending ? (m.retryAt ? sendingIn(m.retryAt) : t.sending) : null;
      return html`<div class="message user ${m.pending ? 'pending' : ''} ${filesOnly(m)}" dir="auto" part="message user-message" data-pending=${m.pending ? 'true' : nothing}><span class="sr-only" dir="auto">${t.you}: </span>${m.content}${this.files(m.attachments)}${mark ? html`<span class="mark">${mark}</span>` : nothing}</div>`;
    }
    if (m.role === 'notice') {
      const line = noticeText(m, t, this.siteName);
      return line ? html`<p class="notice" part="notice" dir="auto">${line}</p>` : nothing;
    }
    // Operator text is untrusted like model text: the same Markdown and sanitizer render it.
    // The label has its own `dir`, so the bubble's direction still follows the message's words.
    const operator = m.role === 'operator';
    const label = provenanceText(m, t, this.siteName);
    const labelId = `label-${m.id}`;
    return html`<div
      class="message assistant ${operator ? 'operator' : ''} ${m.error ? 'failed' : ''} ${filesOnly(m)}"
      dir="auto"
      part=${operator ? 'message operator-message' : 'message assistant-message'}
      role=${label ? 'article' : nothing}
      aria-labelledby=${label ? labelId : nothing}
    >
      ${label ? html`<span class="provenance" part="provenance" id=${labelId} dir="auto">${label}</span>` : html`<span class="sr-only" dir="auto">${this.speaker()}: </span>`}
      <div class="md" ${markdown(m.content)}></div>
      ${this.files(m.attachments)}
      ${m.inputRequest ? this.choices(m, m.inputRequest) : nothing}
      ${m.error ? html`<button @click=${() => this.emit('heed-retry', { conversationId: m.conversationId })}>${t.retry}</button>` : nothing}
      ${m.sources?.length ? sourceList(m.sources) : nothing}
      ${m.cutShort && !this.continued.has(m.id) ? this.cutShort(m) : nothing}
    </div>`;
  }

  /** A message's files (an older API sends none); their element's code loads with the first. */
  private files(files: readonly AttachmentView[] | undefined) {
    if (!files?.length) return nothing;
    void loadAttach(); // tried again on the next render if it fails
    return html`<heed-message-files .files=${files} .base=${this.apiBase}></heed-message-files>`;
  }

  /** Who replies, as screen readers hear it. */
  private speaker(): string {
    return this.assistantName ?? t.assistant;
  }

  /** Three dots that rise in turn (still under reduced motion), named for screen readers. */
  private typingDots() {
    return html`<span class="typing" part="typing"><span></span><span></span><span></span></span><span class="sr-only">${this.speaker()}: ${t.replying}</span>`;
  }

  private cutShort(m: ThreadMessage) {
    const more = () => this.emit('heed-continue', { conversationId: m.conversationId, messageId: m.id });
    return html`<p class="cut" part="cut-short">
      ${t.cutShort} ${this.continuable === m.id ? html`<button @click=${more}>${t.continueReply}</button>` : nothing}
    </p>`;
  }

  private choices(m: ThreadMessage, request: MessageInputRequest) {
    const open = this.question?.id === request.id;
    const usable = open && !this.question!.answering;
    const answer = (content: string) => this.emit('heed-answer', { conversationId: m.conversationId, requestId: request.id, content });
    return html`${
      request.choices.length
        ? html`<div class="choices" role="group" aria-label=${t.choices}>
          ${request.choices.map((c) => html`<button part="choice" ?disabled=${!usable} @click=${() => answer(c)}>${c}</button>`)}
        </div>`
        : nothing
    }
    ${open && request.allowFreeText ? html`<p class="hint">${request.choices.length ? t.orAnswerBelow : t.answerBelow}</p>` : nothing}`;
  }

  /** What the panel puts at the thread's end ("Did this help?") stays in view while the visitor is at the bottom. */
  private readonly onEndChange = () => {
    if (this.pinned) this.scrollTop = this.scrollHeight;
  };

  private readonly onScroll = () => {
    this.pinned = this.scrollHeight - this.scrollTop - this.clientHeight < 40;
  };
}

/**
 * What a reply cites: pages as links that open in a new tab without an opener or referrer, the
 * owner's files and snippets by name (they have no address).
 */
function sourceList(sources: readonly CitedSource[]) {
  const shown = sources.filter((s) => s.url === null || linkableSource(s.url));
  if (shown.length === 0) return nothing;
  return html`<ul class="sources" part="sources" aria-label=${t.sources}>
    ${shown.map(sourceItem)}
  </ul>`;
}

function sourceItem(s: CitedSource) {
  if (!linkableSource(s.url)) return html`<li dir="auto">[${s.n}] ${s.title}</li>`;
  return html`<li><a href=${s.url} target="_blank" rel="noopener noreferrer" dir="auto">[${s.n}] ${s.title} <span class="host">${new URL(s.url).host}</span></a></li>`;
}

/** A message of files without words is drawn without its bubble. */
const filesOnly = (m: ThreadMessage) => (!m.content.trim() && m.attachments?.length ? 'files-only' : '');

/** Replies followed (notices aside) by the visitor's request for their rest. */
function continuedReplies(messages: readonly ThreadMessage[]): Set<string> {
  const continued = new Set<string>();
  let previous: ThreadMessage | undefined;
  for (const m of messages) {
    if (m.role === 'notice') continue;
    if (m.provenance === 'continue' && previous?.role === 'assistant') continued.add(previous.id);
    previous = m;
  }
  return continued;
}

const key = (item: ThreadItem) => (item.kind === 'message' ? (item.message.clientMessageId ?? item.message.id) : 'coming');
