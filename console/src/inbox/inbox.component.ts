import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import '../conversations/conversations.ts';
import '../transcript/transcript.ts';
import '../visitor-profile/visitor-profile.ts';
import type { HeedConsoleConversations } from '../conversations/conversations.component.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ErasingDetail } from '../visitor-erase/visitor-erase.component.ts';
import { isTyping } from '../state/list-keys.ts';
import { hrefOf, type ListState } from '../state/route.ts';
import { styles } from './inbox.styles.ts';

/**
 * The team's inbox: the conversation list, the open conversation and its visitor side by side
 * from 1,100 px; below that, one pane at a time (the list, or the conversation with its visitor
 * under it) with nothing wider than the screen. The URL holds the list's state and the open
 * conversation (`#/conversations/<id>?filter=mine`), so a reload or a colleague's link opens
 * the same view.
 *
 * Keyboard: in the list, j / k or the arrow keys move and Enter opens; `r` writes in the open
 * conversation (the reply box, or a note when it is not held by you); Escape closes the
 * conversation and goes back to its row in the list.
 *
 * When the open conversation is deleted (its visitor erased by a colleague, deleted from the
 * widget, past the site's retention), the conversation pane says so instead of a transcript that
 * can no longer load, and the live region says it too. Erasing its visitor from the visitor
 * pane leaves the conversation for the list.
 */
export class HeedConsoleInbox extends ConsoleElement {
  static override styles = styles;

  /** the open conversation, or null: the list alone */
  @property() conversationId: string | null = null;
  @property({ attribute: false }) list: ListState = {};
  @query('heed-console-conversations') private listPane?: HeedConsoleConversations;
  @query('.conversation-pane') private conversationPane?: HTMLElement;
  /** the open conversation was deleted: its pane says so */
  @state() private removedId: string | null = null;
  /** the conversation was opened from the list here: focus follows it into the conversation */
  private focusConversation = false;
  /** the open conversation's visitor is being erased from here: its removal is that erasure's to report */
  private erasingId: string | null = null;
  /** an erasure left the conversation: focus goes to the list once it is closed */
  private focusList = false;
  private unsubscribe?: () => void;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('keydown', this.onKey);
    this.addEventListener('heed-select', () => void (this.focusConversation = true));
    this.addEventListener('heed-visitor-erasing', this.onErasing as EventListener);
    this.addEventListener('heed-visitor-erased', this.onErased);
    this.unsubscribe = this.api.changes(undefined, {
      onChange: () => {},
      onRemoved: (id) => this.removed(id),
      // the list shows the stream's state and its failures
      onState: () => {},
      onError: () => {},
    });
  }

  override disconnectedCallback() {
    this.unsubscribe?.();
    super.disconnectedCallback();
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('conversationId')) {
      this.removedId = null;
      this.erasingId = null;
    }
  }

  override updated(changed: PropertyValues<this>) {
    if (!changed.has('conversationId')) return;
    if (this.conversationId === null) this.emit('heed-title', { title: null });
    if (this.conversationId === null && this.focusList) {
      this.focusList = false;
      this.listPane?.focusSelected();
    }
    if (this.conversationId !== null && this.focusConversation) {
      this.focusConversation = false;
      this.conversationPane?.focus({ preventScroll: true });
    }
  }

  override render() {
    const open = this.conversationId !== null;
    const gone = open && this.removedId === this.conversationId;
    return html`<div class="panes" data-open=${open ? 'conversation' : 'list'}>
      <section class="list-pane" aria-label="Conversation list">
        <heed-console-conversations .api=${this.api} .me=${this.me} .list=${this.list} .selectedId=${this.conversationId}></heed-console-conversations>
      </section>
      <section class="conversation-pane" tabindex="-1" aria-label="Conversation">
        ${
          open
            ? html`<a class="back" href=${hrefOf({ view: 'conversations', list: this.list })}>← Back to the list</a>
                ${
                  gone
                    ? html`<p class="muted deleted">This conversation was deleted.</p>`
                    : html`<heed-console-transcript .api=${this.api} .me=${this.me} .conversationId=${this.conversationId!}></heed-console-transcript>`
                }`
            : html`<p class="muted choose">Choose a conversation to read it here.</p>`
        }
      </section>
      ${open && !gone ? this.visitorPane() : nothing}
    </div>`;
  }

  /** A conversation was deleted: when it is the open one, its pane says so, and focus inside it stays in the pane. */
  private async removed(conversationId: string) {
    if (conversationId !== this.conversationId || conversationId === this.erasingId || conversationId === this.removedId) return;
    const active = (this.renderRoot as ShadowRoot).activeElement;
    const focusInside = active !== null && active !== this.conversationPane && !this.listPane?.contains(active);
    this.removedId = conversationId;
    this.announce('This conversation was deleted.');
    await this.updateComplete;
    if (focusInside) this.conversationPane?.focus({ preventScroll: true });
  }

  /** The erasure's own removals are not news: it reports them, then leaves the conversation. */
  private readonly onErasing = (e: CustomEvent<ErasingDetail>) => {
    const { conversationId, done } = e.detail;
    this.erasingId = conversationId;
    void done.then((erased) => {
      if (!erased && this.erasingId === conversationId) this.erasingId = null;
    });
  };

  private readonly onErased = () => {
    this.focusList = true;
    location.hash = hrefOf({ view: 'conversations', list: this.list });
  };

  /** The visitor of the open conversation (who they are, where they are, what they asked before). */
  private visitorPane() {
    return html`<aside class="visitor-pane" aria-label="Visitor">
      <heed-visitor-profile .api=${this.api} .me=${this.me} .conversationId=${this.conversationId!}></heed-visitor-profile>
    </aside>`;
  }

  private readonly onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.conversationId !== null) {
      // a menu inside closes itself first, and a draft is never thrown away by a key
      if (e.defaultPrevented || hasDraft(e)) return;
      e.preventDefault();
      location.hash = hrefOf({ view: 'conversations', list: this.list });
      void this.updateComplete.then(() => this.listPane?.focusSelected());
      return;
    }
    if (isTyping(e)) return;
    if (e.key === 'r' && this.conversationId !== null) {
      const writer = this.composer();
      if (!writer) return;
      e.preventDefault();
      writer.focus();
    }
  };

  /** The open conversation's writing box: the reply when held by this operator, else the note. */
  private composer(): HTMLElement | null {
    const transcript = this.renderRoot.querySelector('heed-console-transcript');
    const takeover = transcript?.shadowRoot?.querySelector('heed-console-takeover');
    return takeover?.shadowRoot?.querySelector<HTMLElement>('textarea') ?? null;
  }
}

/** The key was pressed in a text field holding words. */
function hasDraft(e: KeyboardEvent): boolean {
  const field = e.composedPath()[0];
  return (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) && field.value !== '';
}
