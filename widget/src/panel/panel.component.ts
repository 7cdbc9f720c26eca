import { html, nothing, type PropertyValues } from 'lit';
import { HeedElement } from '../shared/heed-element.ts';
import { t } from '../i18n/panel-strings.ts';
import { closeIcon } from '../shared/icons.ts';
import { homeIcon, menuIcon } from '../shared/panel-icons.ts';
import { StoreController } from '../state/store-controller.ts';
import type { HeedStore } from '../state/store.ts';
import type { AttachmentView } from '../state/types.ts';
import { ThreadSync } from '../state/thread-sync.ts';
import { replyComing } from '../state/reply-coming.ts';
import { openQuestion } from '../state/open-question.ts';
import { renameConversation } from '../state/rename.ts';
import { setConversationPrivate } from '../state/private.ts';
import { deleteConversation } from '../state/delete-conversation.ts';
import { contactOffered } from '../contact-email/contact-choice.ts';
import { ratingAsked } from '../state/rate.ts';
import { headingLabel } from '../heading/heading-label.ts';
import { provenanceText } from '../message-list/provenance-text.ts';
import type { HeedComposer } from '../composer/composer.component.ts';
import { ConversationTitle, followsConversationTitle } from '../host/conversation-title.ts';
import { readMarkDue } from './read-marking.ts';
import { landingConversation, latestConversation } from '../inbox/landing.ts';
import { wrapTab } from './focus-trap.ts';
import { greetingFor } from '../../../api/src/shared/greetings.ts';
import { styles } from './panel.styles.ts';

/** Below this width the sidebar becomes a drawer (the panel is full-screen on phones). */
export const NARROW_BELOW_PX = 640;

/** From this many conversations a floating panel opens with their list beside the thread. */
export const SEVERAL_CONVERSATIONS = 3;

/** A viewport as narrow as a phone's: there a floating panel fills the screen. */
const phoneViewport = () => matchMedia(`(max-width: ${NARROW_BELOW_PX - 0.02}px)`);

type Layout = 'wide' | 'narrow';

/**
 * The chat: sidebar, the one heading (where an open thread can be renamed or marked
 * private, and whose provenance label says who answers), the open
 * tasks, the live banner, the open thread (or the inbox when none is open) and the
 * composer. One layout switch: narrower than 640 px the sidebar turns into a drawer; the
 * same components render both ways. A floating panel on a wide screen is compact (about
 * 400 px, the list behind ☰) unless the list is shown beside the thread: by default only for a
 * visitor with several conversations, else when they open it (and until they close it). It marks the open thread read only while the panel
 * is open and the page visible. Full screen on a phone, Tab and Shift+Tab go round inside it. While the thread's question allows free text, the
 * composer's next message answers it. While a person is to reply, an offer to hear back by email sits above the composer
 * (`contact-email/`). Where the site takes attachments, files dragged over the panel attach when dropped (the
 * composer shows a drop zone); what happens to an attached file is read out through the heading's status region
 * (`heed-announce`). The heading's menu deletes the open thread once the visitor confirms; when the open thread is
 * gone (deleted here, in another tab, by the site), the panel goes home, says so there, and gives focus it had
 * to the composer.
 *
 * @event heed-close - The visitor closed the chat (Escape or the close button).
 *
 * @csspart panel - The outer box.
 *
 * @cssproperty --heed-font-family - Font.
 * @cssproperty --heed-font-size - Base size (15px).
 * @cssproperty --heed-background - Background of every surface.
 * @cssproperty --heed-text-color - Text colour.
 * @cssproperty --heed-border-color - Dividers.
 * @cssproperty --heed-focus-color - Focus rings.
 */
export class HeedPanel extends HeedElement {
  static override styles = styles;
  static override properties = {
    store: { attribute: false },
    open: { type: Boolean, reflect: true },
    layout: { reflect: true },
    closable: { type: Boolean },
    locale: {},
    placement: { reflect: true },
    side: { reflect: true },
    compact: { type: Boolean, reflect: true },
    resumeConversationId: { attribute: false },
    resumeHome: { attribute: false },
    landOnOpen: { attribute: false },
    activeId: { state: true },
    collapsed: { state: true },
    now: { state: true },
    drawerOpen: { state: true },
    listChoice: { state: true },
    measured: { state: true },
    announcement: { state: true },
  };

  store?: HeedStore;
  open = false;
  /** forces a layout; otherwise the panel's own width decides */
  layout?: Layout;
  /** shows a close button and behaves as a dialog (launcher mode) */
  closable = false;
  locale?: string;
  /** floating above the launcher, or filling an inline container */
  placement: 'floating' | 'inline' = 'inline';
  /** which corner a floating panel sits in */
  side: 'left' | 'right' = 'right';
  /** a floating panel on a wide screen without its list beside the thread (set by the panel itself) */
  compact = false;

  /** the thread to open first (the one open before a reload); the inbox when it is gone */
  resumeConversationId: string | null = null;
  /** the visitor went home on purpose in this tab before: opening keeps the home view */
  resumeHome = false;
  /** opening lands in the thread where the visitor's attention is (`landingConversation`); the widget sets it */
  landOnOpen = false;

  /** the open thread; null shows the inbox */
  activeId: string | null = null;
  private collapsed = false;
  /** the clock of the rows' relative dates ("5 minutes ago"), ticking while the panel is open */
  private now = Date.now();
  private clock?: ReturnType<typeof setInterval>;
  private drawerOpen = false;
  /** the visitor showed (true) or hid (false) the list beside the thread; null: the default decides */
  private listChoice: boolean | null = null;
  private readonly phone = phoneViewport();
  /** ☰ widened the panel: once the list is in, focus goes to it (the button pressed is gone) */
  private focusList = false;
  private measured: Layout = 'wide';
  /** a sentence the heading's status region reads out */
  private announcement = '';
  private get composer(): HeedComposer | null {
    return this.renderRoot?.querySelector<HeedComposer>('heed-composer');
  }

  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a reactive controller works by registering itself with the host
  private readonly sync = new StoreController(this, () => this.store);
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a reactive controller works by registering itself with the host
  private readonly documentTitle = new ConversationTitle(this, () => {
    const active = this.open && followsConversationTitle(this) ? this.store?.conversation(this.activeId) : undefined;
    return active ? (active.title ?? t.newConversation) : null;
  });
  // The layout changes in the next frame, not inside the observer's callback: a change that
  // resizes the panel again (a page scrollbar appearing with the live banner) would otherwise
  // end the frame with "ResizeObserver loop completed with undelivered notifications".
  private readonly resize = new ResizeObserver(([entry]) => {
    const next = entry && entry.contentRect.width < NARROW_BELOW_PX ? 'narrow' : 'wide';
    if (entry && next !== this.measured) requestAnimationFrame(() => (this.measured = next));
  });
  private lastMark = '';
  /** the visitor whose landing was decided (another visitor, e.g. the user after identify, lands again) */
  private landedFor: string | null | undefined;
  /** whether the visitor's last move here was to the home view; null: none yet (`resumeHome` tells) */
  private wentHome: boolean | null = null;
  private threadSync?: ThreadSync;
  private syncedStore?: HeedStore;

  /** The threads half of the store, created with the panel (one per store). */
  get threads(): ThreadSync | undefined {
    if (this.store && this.syncedStore !== this.store) {
      this.syncedStore = this.store;
      this.threadSync = new ThreadSync(this.store);
    }
    return this.threadSync;
  }

  get currentLayout(): Layout {
    return this.layout ?? this.measured;
  }

  override connectedCallback() {
    super.connectedCallback();
    this.resize.observe(this);
    this.phone.addEventListener('change', this.onViewport);
    document.addEventListener('visibilitychange', this.checkRead);
    this.clock = setInterval(() => this.open && (this.now = Date.now()), 30_000);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.resize.disconnect();
    this.phone.removeEventListener('change', this.onViewport);
    document.removeEventListener('visibilitychange', this.checkRead);
    clearInterval(this.clock);
  }

  /** Opens a conversation's thread (loading it when needed). */
  async openConversation(conversationId: string | null): Promise<void> {
    this.activeId = conversationId;
    this.wentHome = conversationId === null;
    this.drawerOpen = false;
    this.emit('heed-thread-opened', { conversationId });
    if (conversationId && this.store && !this.store.state.threads.has(conversationId)) await this.threads?.load(conversationId);
  }

  override render() {
    const store = this.store;
    if (!store) return nothing;
    const s = store.state;
    const narrow = this.currentLayout === 'narrow';
    const active = store.conversation(this.activeId);
    const thread = active ? s.threads.get(active.id) : undefined;
    // the latest message that says why it appeared; a notice is told by the conversation's state
    const latest = thread?.findLast((m) => m.role !== 'notice');
    const siteName = s.site?.name ?? null;
    const question = openQuestion(active, thread);
    // a first-time visitor meets the greeting (in their language when the site wrote one) instead of an empty inbox
    const greetingText = s.site
      ? greetingFor({ greeting: s.site.greeting ?? null, greetings: s.site.greetings }, this.locale ?? 'en')
      : null;
    const greeting = greetingText ? { text: greetingText, name: s.site?.assistantName ?? null } : null;
    return html`<div class="panel" part="panel" role=${this.closable ? 'dialog' : 'region'} aria-label=${t.chat} @keydown=${this.keydown} @heed-announce=${this.onAnnounce} @dragenter=${this.onDrag} @dragover=${this.onDrag} @dragleave=${this.onDrag} @drop=${this.onDrag}>
      ${narrow && this.drawerOpen ? html`<div class="scrim" @click=${() => (this.drawerOpen = false)}></div>` : nothing}
      <heed-sidebar
        class=${narrow ? 'drawer' : ''}
        ?hidden=${narrow && !this.drawerOpen}
        ?collapsed=${!narrow && this.collapsed}
        ?no-collapse=${narrow}
        .conversations=${s.conversations}
        .selectedId=${this.activeId}
        .locale=${this.locale}
        .now=${this.now}
        @heed-select=${this.onSelect}
        @heed-new-conversation=${this.onNew}
        @heed-sidebar-toggle=${this.onSidebarToggle}
      ></heed-sidebar>
      <div class="main">
        <heed-heading
          .label=${active ? (active.title ?? s.site?.assistantName ?? t.newConversation) : (s.site?.assistantName ?? s.site?.name ?? t.chat)}
          .connection=${s.connection}
          .announcement=${this.announcement}
          .provenance=${headingLabel(active, latest ? provenanceText(latest, t, siteName) : null, t)}
          ?renamable=${!!active}
          ?options=${!!active}
          ?private=${!!active?.private}
          layout=${this.currentLayout}
          @heed-rename=${this.onRename}
          @heed-private-change=${this.onPrivate}
          @heed-delete=${this.onDelete}
        >
          ${
            narrow
              ? html`<button slot="start" class="icon-button" aria-expanded=${this.drawerOpen ? 'true' : 'false'} @click=${this.showList}>
                ${menuIcon()}<span class="sr-only">${t.showConversations}</span>
              </button>`
              : nothing
          }
          ${active ? html`<button slot="start" class="icon-button" @click=${() => this.openConversation(null)}>${homeIcon()}<span class="sr-only">${t.home}</span></button>` : nothing}
          ${this.closable ? html`<button slot="end" class="icon-button" @click=${() => this.emit('heed-close')}>${closeIcon()}<span class="sr-only">${t.close}</span></button>` : nothing}
        </heed-heading>
        ${active ? html`<heed-todo-list .todos=${active.openTodos ?? []}></heed-todo-list>` : nothing}
        <heed-live-banner .count=${store.counts.live}></heed-live-banner>
        ${
          active
            ? html`<heed-message-list
              class="body"
              .messages=${thread ?? []}
              .reply=${s.replies.get(active.id)}
              .question=${question}
              .greeting=${greeting}
              .siteName=${siteName}
              .assistantName=${s.site?.assistantName ?? null}
              .apiBase=${store.api.base}
              ?replyComing=${replyComing(active, thread, s.replies.get(active.id), s.connection)}
              ?loading=${!thread}
              @heed-retry=${this.onRetry}
              @heed-continue=${this.onContinue}
              @heed-answer=${this.onAnswer}
            >${
              ratingAsked(active, thread)
                ? html`<heed-rating-prompt slot="end" .store=${store} .conversationId=${active.id} .rating=${active.rating ?? null}></heed-rating-prompt>`
                : nothing
            }</heed-message-list>`
            : greeting && s.ready && s.conversations.length === 0
              ? html`<heed-message-list class="body" .greeting=${greeting}></heed-message-list>`
              : html`<heed-inbox
                class="body"
                .conversations=${s.conversations}
                .replies=${s.replies}
                ?unavailable=${s.connection === 'unavailable'}
                @heed-select=${this.onSelect}
                @heed-retry=${this.onRetry}
                @heed-new-conversation=${this.onNew}
              ></heed-inbox>`
        }
        ${active && contactOffered(store, active) ? html`<heed-contact-email .store=${store} @heed-contact-skip=${this.onContactSkip}></heed-contact-email>` : nothing}
        <heed-composer
          placeholder=${question?.allowFreeText && !question.answering ? t.typeAnswer : t.writeMessage}
          .attach=${s.site?.attachments?.kinds.length ? { settings: s.site.attachments, api: store.api, conversationId: active?.id ?? null, target: () => this.sendTarget(store) } : null}
          @heed-send=${this.onSend}
          @heed-typing=${this.onTyping}
        ></heed-composer>
      </div>
    </div>`;
  }

  protected override firstUpdated() {
    const resume = this.resumeConversationId;
    const store = this.store;
    if (!resume || !store) return;
    // Wait for the visitor's conversations: the thread is reopened only if it is still theirs.
    const attempt = () => {
      if (!store.state.ready) return false;
      if (this.activeId === null && store.conversation(resume)) void this.openConversation(resume);
      return true;
    };
    if (attempt()) return;
    const stop = store.subscribe(() => attempt() && stop());
  }

  protected override willUpdate() {
    this.leaveGone();
    this.land();
    const floatingWide = this.placement === 'floating' && !this.phone.matches;
    const several = (this.store?.state.conversations.length ?? 0) >= SEVERAL_CONVERSATIONS;
    this.compact = floatingWide && !(this.listChoice ?? several);
  }

  private readonly onViewport = () => this.requestUpdate();

  /** ☰: a compact floating panel widens to show the list beside the thread; elsewhere the drawer opens. */
  private readonly showList = () => {
    if (!this.compact) return void (this.drawerOpen = true);
    this.listChoice = true;
    this.focusList = true;
  };

  /** The sidebar's collapse toggle: a floating panel on a wide screen goes compact instead. */
  private readonly onSidebarToggle = (e: CustomEvent<{ collapsed: boolean }>) => {
    if (this.placement === 'floating' && !this.phone.matches) this.listChoice = !e.detail.collapsed;
    else this.collapsed = e.detail.collapsed;
  };

  /**
   * Once open with the visitor's conversations in: back into the thread where their attention
   * is, else the most recent one, unless they went home on purpose or one is already open.
   */
  private land() {
    const store = this.store;
    if (!this.landOnOpen || !this.open || !store?.state.ready || this.landedFor === store.state.visitorId) return;
    this.landedFor = store.state.visitorId;
    if (store.conversation(this.activeId)) return;
    const memory = { conversationId: this.resumeConversationId, home: this.wentHome ?? this.resumeHome };
    const id = landingConversation(store.state.conversations, memory);
    // a thread that fails to load shows "Loading…" until the visitor picks it again: nothing to throw at the page
    if (id) this.openConversation(id).catch(() => {});
  }

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has('open') && this.open) this.composer?.focus();
    if (this.refocus) {
      this.refocus = false;
      // the menu button that had it goes with the heading's own update, after this one
      void this.renderRoot
        .querySelector('heed-heading')
        ?.updateComplete.then(() => this.matches(':focus-within') || this.composer?.focus());
    }
    const sidebar = this.renderRoot.querySelector('heed-sidebar');
    if (this.focusList && sidebar && !sidebar.hidden) {
      this.focusList = false;
      sidebar.shadowRoot?.querySelector('button')?.focus();
    }
    this.checkRead();
  }

  /** Marks the open thread read when the visitor can actually see its newest reply. */
  readonly checkRead = () => {
    const store = this.store;
    if (!store) return;
    const conversation = store.conversation(this.activeId);
    const due = readMarkDue({
      conversation,
      thread: conversation && store.state.threads.get(conversation.id),
      panelOpen: this.open,
      visible: document.visibilityState === 'visible',
    });
    if (!due || !conversation) return;
    const mark = `${conversation.id}@${due}`;
    if (mark === this.lastMark) return;
    this.lastMark = mark;
    store.markRead(conversation.id, due).catch(() => (this.lastMark = ''));
  };

  private keydown(e: KeyboardEvent) {
    // full screen on a phone, the panel is all there is: Tab goes round inside it
    if (this.placement === 'floating' && this.phone.matches) wrapTab(e, this.renderRoot);
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    if (this.drawerOpen) this.drawerOpen = false;
    else this.emit('heed-close');
  }

  private readonly onSelect = (e: CustomEvent<{ conversationId: string }>) => {
    void this.openConversation(e.detail.conversationId);
  };

  private readonly onNew = async () => {
    if (!this.store) return;
    await (this.creating ??= this.startConversation(this.store));
    this.composer?.focus();
  };

  private readonly onRetry = (e: CustomEvent<{ conversationId: string }>) => {
    void this.threads?.retry(e.detail.conversationId);
  };

  private readonly onContinue = (e: CustomEvent<{ conversationId: string; messageId: string }>) => {
    void this.threads?.continueReply(e.detail.conversationId, e.detail.messageId);
  };

  private readonly onRename = (e: CustomEvent<{ title: string }>) => {
    // a refused rename puts the old title back (renameConversation does); nothing else to show
    if (this.store && this.activeId) renameConversation(this.store, this.activeId, e.detail.title).catch(() => {});
  };

  /** the conversations this tab deleted: said once, when the server answers, not again as the thread goes */
  private readonly deleted = new Set<string>();
  /** focus was in the panel when the open thread went: it goes to the composer if it was lost with it */
  private refocus = false;

  /** "Delete conversation", confirmed: the thread goes once the server has deleted it; a refusal only says so. */
  private readonly onDelete = async () => {
    const store = this.store;
    const id = this.activeId;
    if (!store || !id) return;
    this.deleted.add(id);
    try {
      await deleteConversation(store, id);
      this.say(t.conversationDeleted);
    } catch {
      this.deleted.delete(id);
      this.say(t.deleteFailed);
    }
  };

  /** The open thread left the visitor's list (deleted anywhere, or a new session without it): home. */
  private leaveGone() {
    const id = this.activeId;
    const store = this.store;
    if (!id || !store?.state.ready || store.conversation(id)) return;
    if (!this.deleted.has(id)) this.say(t.conversationDeleted);
    this.refocus = this.matches(':focus-within');
    void this.openConversation(null);
  }

  private readonly onPrivate = (e: CustomEvent<{ private: boolean }>) => {
    // a refused change puts the old state back (setConversationPrivate does); the toggle shows it
    if (this.store && this.activeId) setConversationPrivate(this.store, this.activeId, e.detail.private).catch(() => {});
  };

  /** "No thanks" to the email offer: it goes, and the composer takes the focus the offer had. */
  private readonly onContactSkip = async () => {
    this.requestUpdate();
    await this.updateComplete;
    this.composer?.focus();
  };

  private readonly onAnswer = (e: CustomEvent<{ conversationId: string; requestId: string; content: string }>) => {
    this.threads?.send(e.detail.conversationId, e.detail.content, e.detail.requestId);
  };

  /**
   * From the inbox, a message continues the latest conversation (opening it); only a visitor
   * with none starts one. In a thread whose open question allows free text, the message is the
   * answer. Without a visitor token (a refused origin, a sign-in needed) the send is refused here:
   * cancelling the event keeps the words in the composer.
   */
  private readonly onSend = async (e: CustomEvent<{ content: string; attachments?: AttachmentView[]; conversationId?: string }>) => {
    const store = this.store;
    if (!store) return;
    if (!store.canSend) return e.preventDefault();
    const { content, attachments, conversationId } = e.detail;
    try {
      // files were uploaded to one conversation: the message goes there
      const id = conversationId ?? (await this.sendTarget(store));
      const question = openQuestion(store.conversation(id), store.state.threads.get(id));
      this.threads?.send(id, content, question?.allowFreeText && !question.answering ? question.id : undefined, attachments);
    } catch {
      // the conversation could not be created (the token was refused meanwhile): the heading's status says why
    }
  };

  /** Where a send goes, and files attached now upload: the open thread, else the home view's target (`homeTarget`). */
  private async sendTarget(store: HeedStore): Promise<string> {
    // a send typed before the session is up waits for it: the new conversation needs the visitor's
    // token, and "the latest conversation" is only known once the list is in
    if (!this.activeId) await store.whenReady();
    // typed right after "New conversation": it belongs in the new one, not the one still shown
    if (this.creating) await this.creating.catch(() => undefined);
    return this.activeId ?? (await this.homeTarget(store));
  }

  private readonly onAnnounce = (e: CustomEvent<{ text: string }>) => {
    e.stopPropagation();
    this.say(e.detail.text);
  };

  /** Reads a sentence out through the heading's status region. */
  private say(text: string) {
    // the same sentence again must still be read out: it differs by an invisible space
    this.announcement = text === this.announcement ? `${text}\u00a0` : text;
  }

  /** Files dragged over the panel attach through the composer, which shows where they go. */
  private readonly onDrag = (e: DragEvent) => this.composer?.drag(e);

  /** Typing in an open thread after a send holds that send's run for the rest of the words. */
  private readonly onTyping = () => {
    if (this.activeId) this.threads?.typed(this.activeId);
  };

  /** Where a send from the home view goes: the latest conversation, opened; else a new one. */
  private async homeTarget(store: HeedStore): Promise<string> {
    const latest = latestConversation(store.state.conversations);
    // quick sends from a visitor with no conversation share the one the first of them creates
    if (!latest) return (this.creating ??= this.startConversation(store));
    // opened first, so its history loads around the message instead of the message standing alone
    this.openConversation(latest.id).catch(() => {});
    return latest.id;
  }

  /** the conversation being created (for "New conversation" or a first send): sends wait for it */
  private creating: Promise<string> | null = null;

  private async startConversation(store: HeedStore): Promise<string> {
    try {
      const { id } = await store.createConversation();
      this.threads?.open(id);
      await this.openConversation(id);
      return id;
    } finally {
      this.creating = null;
    }
  }
}
