import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import '../../../widget/src/conversation-row/conversation-row.ts';
import { ConsoleElement } from '../shared/console-element.ts';
import type { ConversationChange, ConversationFilter, ConversationItem, SiteSummary } from '../state/contract.ts';
import { applyChange, applyWaitingChange } from '../state/conversation-feed.ts';
import { hrefOf, type ListState } from '../state/route.ts';
import { isTyping, nextRowKey } from '../state/list-keys.ts';
import { rowViewOf } from '../state/row-view.ts';
import { visitorLabel } from '../state/visitor-label.ts';
import { styles } from './conversations.styles.ts';
import { counted } from '../state/plural.ts';
import { SHORT_LABELS } from '../state/attention-label.ts';
import { relativeTime } from '../../../widget/src/shared/relative-time.ts';

export const FILTERS: { value: ConversationFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'mine', label: 'Mine' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'waiting', label: 'Waiting for a person' },
  { value: 'unread', label: 'Unread' },
  { value: 'live', label: 'Live' },
  { value: 'input_needed', label: 'Input needed' },
  { value: 'failed', label: 'Failed' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'resolved', label: 'Resolved' },
];

/** How many waiting conversations the queue at the top shows (oldest wait first). */
const WAITING_MAX = 50;

/**
 * Every conversation of the operator's sites, newest activity first: a site selector, the
 * filters (All, Mine, Unassigned, Waiting for a person, Unread — unread for this operator —,
 * Live, Input needed, Failed, Snoozed, Resolved), a search
 * over message text, "Load more" pages (cursor), and "Export CSV" of the same list. Rows are
 * the widget's own `heed-conversation-row` (the four attention states look the same
 * everywhere), with the site, the visitor and the latest excerpt beside them, who holds it
 * ("Held by Ana") and whether it waits for a person, and a paperclip when files were sent in
 * it ("3 attachments"); a private conversation's row says "Private conversation" (the server
 * sends no title or excerpt for it).
 *
 * Above the list, "Waiting for a person (N)": the operators' queue, its own list call (filter
 * `waiting`, oldest wait first), kept live by the same stream, whatever the filter below.
 *
 * Live without polling: `console.conversations.changes` (SSE) upserts rows — a new
 * conversation appears, one with new activity moves to the top, a state changes in place, a
 * deleted one (erased, deleted by its visitor, past the site's retention) leaves both lists.
 * Changes that arrive while a page loads are applied after it, in order.
 *
 * The list's state lives in the URL (`list`, from the route): choosing a filter, a site or a
 * search navigates, so a reload or a shared link shows the same list. Keyboard: j / k or the
 * arrow keys move between rows, Enter opens one (the open one is `selectedId`).
 */
export class HeedConsoleConversations extends ConsoleElement {
  static override styles = styles;

  @state() private items: ConversationItem[] = [];
  @state() private waiting: ConversationItem[] = [];
  @state() private nextCursor: string | null = null;
  @state() private sites: SiteSummary[] = [];
  /** the list's filter, search and site, as the URL says */
  @property({ attribute: false }) list: ListState = {};
  /** the conversation open beside the list */
  @property() selectedId: string | null = null;
  @state() private siteId = '';
  @state() private filter: ConversationFilter = 'all';
  @state() private search = '';
  @state() private loading = false;
  @state() private error: string | null = null;
  @state() private connection: 'connecting' | 'connected' | 'off' = 'connecting';
  private unsubscribe?: () => void;
  /** changes that came while the list's page loads, applied after it */
  private held: ConversationChange[] | null = null;
  private waitingHeld: ConversationChange[] | null = null;
  private loadSeq = 0;
  private waitingSeq = 0;

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('keydown', this.onKey);
    void this.api
      .sites()
      .then((s) => (this.sites = s))
      .catch((err) => this.failed(err));
    this.adopt(this.list);
    this.reload();
  }

  override willUpdate(changed: PropertyValues<this>) {
    // the URL changed the list (back button, a link): load what it names
    if (changed.has('list') && changed.get('list') !== undefined && this.adopt(this.list)) this.reload();
  }

  /** Takes the URL's list state; true when it differs from what is shown. */
  private adopt(list: ListState): boolean {
    const next = { filter: list.filter ?? 'all', search: list.search ?? '', siteId: list.siteId ?? '' };
    if (next.filter === this.filter && next.search === this.search && next.siteId === this.siteId) return false;
    Object.assign(this, next);
    return true;
  }

  override disconnectedCallback() {
    this.unsubscribe?.();
    super.disconnectedCallback();
  }

  override render() {
    return html`<div class="head" part="head">
        <h1>Conversations</h1>
        <span class="connection" data-state=${this.connection}>${this.connection === 'connected' ? 'Live updates on' : this.connection === 'off' ? 'Live updates off' : 'Connecting…'}</span>
      </div>
      <form role="search" class="search" @submit=${this.submitSearch}>
        <label for="q" class="sr-only">Search messages</label>
        <input id="q" type="search" name="q" .value=${this.search} placeholder="Search messages" />
        <button type="submit">Search</button>
      </form>
      <div class="toolbar">
        <label class="site">Site
          <select @change=${this.pickSite} .value=${this.siteId}>
            <option value="">All sites</option>
            ${this.sites.map((s) => html`<option value=${s.id} ?selected=${s.id === this.siteId}>${s.name}</option>`)}
          </select>
        </label>
        <a class="button" href=${this.csvHref()} download>Export CSV</a>
      </div>
      <div class="filters" role="group" aria-label="Filter">
        ${FILTERS.map((f) => html`<button type="button" aria-pressed=${this.filter === f.value ? 'true' : 'false'} @click=${() => this.pickFilter(f.value)}>${f.label}</button>`)}
      </div>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      ${this.queue()}
      <ul class="list main-list" aria-label="Conversations" aria-busy=${this.loading ? 'true' : 'false'} @heed-select=${this.open}>
        ${this.items.map((c) => this.row(c))}
      </ul>
      ${!this.loading && this.items.length === 0 ? html`<p class="muted">${this.emptyText()}</p>` : nothing}
      ${this.nextCursor ? html`<button type="button" class="more" ?disabled=${this.loading} @click=${this.loadMore}>Load more</button>` : nothing}`;
  }

  /** The queue at the top of the whole list (a narrower filter is what the operator asked to see). */
  private queue() {
    if (this.waiting.length === 0 || this.filter !== 'all') return nothing;
    return html`<section class="queue" aria-labelledby="waiting-h">
      <h2 id="waiting-h">Waiting for a person (${this.waiting.length})</h2>
      <ul class="list" aria-labelledby="waiting-h" @heed-select=${this.open}>
        ${this.waiting.map((c) => this.row(c))}
      </ul>
    </section>`;
  }

  private row(c: ConversationItem) {
    return html`<li data-id=${c.id} data-attention=${c.attention} data-waiting=${c.waitingForPerson ? 'true' : 'false'} data-selected=${c.id === this.selectedId ? 'true' : 'false'}>
      <heed-conversation-row .conversation=${rowViewOf(c)} .selected=${c.id === this.selectedId}></heed-conversation-row>
      <p class="meta">
        ${this.when(c)}
        ${c.failed ? html`<span class="failed">Failed</span>` : nothing}
        ${c.waitingForPerson && c.attention !== 'waiting' ? html`<span class="waiting">Waiting for a person</span>` : nothing}
        ${c.status === 'resolved' ? html`<span class="status">Resolved</span>` : c.status === 'snoozed' ? html`<span class="status">Snoozed</span>` : nothing}
        ${c.heldBy ? html`<span class="held">Held by ${c.heldBy.name || 'an operator'}</span>` : nothing}
        ${c.assignee && c.assignee.id !== c.heldBy?.id ? html`<span class="assignee">Assigned to ${c.assignee.id === this.me?.id ? 'you' : c.assignee.name}</span>` : nothing}
        <span>${c.siteName}</span>
        <span>${visitorLabel(c.visitor)}</span>
        <span>${counted(c.messageCount, 'message')}</span>
        ${c.attachmentCount > 0 ? paperclip(c.attachmentCount) : nothing}
        ${c.excerpt && !c.private ? html`<span class="excerpt">${c.excerpt}</span>` : nothing}
      </p>
    </li>`;
  }

  /**
   * The row's state in its colour, or when it last moved: the first fact of the line under the
   * title (the widget's row shows it under the title; here that line carries the facts too).
   */
  private when(c: ConversationItem) {
    if (c.attention !== 'default') return html`<span class="state" data-state=${c.attention}>${SHORT_LABELS[c.attention]}</span>`;
    return html`<span class="state">${relativeTime(new Date(c.updatedAt).toISOString())}</span>`;
  }

  /** j / k and the arrow keys move between rows (not while typing in a field). */
  private readonly onKey = (e: KeyboardEvent) => {
    if (isTyping(e)) return;
    const step = nextRowKey(e);
    if (step === 0) return;
    const rows = [...this.renderRoot.querySelectorAll<HTMLElement>('.main-list heed-conversation-row')];
    if (rows.length === 0) return;
    e.preventDefault();
    const at = rows.indexOf(this.renderRoot instanceof ShadowRoot ? (this.renderRoot.activeElement as HTMLElement) : rows[0]!);
    const from = at >= 0 ? at : rows.findIndex((r) => r.closest('li')?.dataset.selected === 'true');
    const to = from < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, from + step));
    rows[to]!.focus();
    rows[to]!.scrollIntoView({ block: 'nearest' });
  };

  /** Focuses the open conversation's row (or the first): where Escape from the conversation lands. */
  focusSelected() {
    const rows = [...this.renderRoot.querySelectorAll<HTMLElement>('.main-list li')];
    const li = rows.find((r) => r.dataset.selected === 'true') ?? rows[0];
    li?.querySelector<HTMLElement>('heed-conversation-row')?.focus();
  }

  private emptyText() {
    if (this.search) return 'No conversation has messages with these words.';
    return this.filter === 'all'
      ? 'No conversations yet. They appear here the moment a visitor writes.'
      : 'No conversation is in this state right now.';
  }

  private csvHref() {
    const q = new URLSearchParams({ filter: this.filter });
    if (this.siteId) q.set('siteId', this.siteId);
    if (this.search) q.set('search', this.search);
    return `/admin/export/conversations.csv?${q}`;
  }

  private pickSite(e: Event) {
    this.siteId = (e.target as HTMLSelectElement).value;
    this.navigated();
  }

  private pickFilter(filter: ConversationFilter) {
    if (filter === this.filter) return;
    this.filter = filter;
    this.navigated();
  }

  private submitSearch(e: SubmitEvent) {
    e.preventDefault();
    this.search = String(new FormData(e.target as HTMLFormElement).get('q') ?? '').trim();
    this.navigated();
  }

  /** The list state as the URL writes it. */
  private get listState(): ListState {
    return {
      ...(this.filter !== 'all' ? { filter: this.filter } : {}),
      ...(this.search ? { search: this.search } : {}),
      ...(this.siteId ? { siteId: this.siteId } : {}),
    };
  }

  /** The operator changed the list: load it, and put it in the URL (the open conversation stays open). */
  private navigated() {
    this.reload();
    const list = this.listState;
    location.hash = hrefOf(
      this.selectedId ? { view: 'transcript', conversationId: this.selectedId, list } : { view: 'conversations', list },
    );
  }

  /** A new scope: the first page again, and a subscription for the new site scope. */
  private reload() {
    this.subscribe();
    void this.load(null);
    void this.loadWaiting();
  }

  private async loadWaiting() {
    const seq = ++this.waitingSeq;
    this.waitingHeld = [];
    try {
      const page = await this.api.conversations({ filter: 'waiting', limit: WAITING_MAX, ...(this.siteId ? { siteId: this.siteId } : {}) });
      if (seq !== this.waitingSeq) return;
      this.waiting = page.items;
      const held = this.waitingHeld ?? [];
      this.waitingHeld = null;
      for (const change of held) this.takeWaiting(change, false);
    } catch (err) {
      if (seq === this.waitingSeq) this.error = this.failed(err).message;
    }
  }

  private loadMore() {
    void this.load(this.nextCursor);
  }

  private async load(cursor: string | null) {
    const seq = ++this.loadSeq;
    this.loading = true;
    this.error = null;
    if (!cursor) this.held = [];
    try {
      const page = await this.api.conversations({
        filter: this.filter,
        ...(this.siteId ? { siteId: this.siteId } : {}),
        ...(this.search ? { search: this.search } : {}),
        ...(cursor ? { cursor } : {}),
      });
      if (seq !== this.loadSeq) return;
      const known = new Set(page.items.map((c) => c.id));
      const kept = cursor ? this.items.filter((c) => !known.has(c.id)) : [];
      this.items = [...kept, ...page.items];
      this.nextCursor = page.nextCursor;
      const held = this.held ?? [];
      this.held = null;
      for (const change of held) this.take(change);
      if (!cursor)
        this.announce(page.nextCursor ? `${page.items.length} or more conversations.` : `${counted(page.items.length, 'conversation')}.`);
    } catch (err) {
      if (seq === this.loadSeq) this.error = this.failed(err).message;
    } finally {
      if (seq === this.loadSeq) this.loading = false;
    }
  }

  private subscribe() {
    this.unsubscribe?.();
    this.connection = 'connecting';
    this.unsubscribe = this.api.changes(this.siteId || undefined, {
      onChange: (change) => this.receive(change),
      onRemoved: (conversationId) => this.receive({ type: 'removed', conversationId }),
      onState: (s) => void (this.connection = s),
      onError: (err) => {
        this.connection = 'off';
        this.error = this.failed(err).message;
      },
    });
  }

  /** One live change for both lists, held while a list's page loads. */
  private receive(change: ConversationChange) {
    if (this.held) this.held.push(change);
    else this.take(change);
    if (this.waitingHeld) this.waitingHeld.push(change);
    else this.takeWaiting(change);
  }

  private take(change: ConversationChange) {
    if (change.type === 'upsert') this.upsert(change.item);
    else this.items = this.items.filter((c) => c.id !== change.conversationId);
  }

  /** `announce` false: a change held through the queue's load, too late to be news. */
  private takeWaiting(change: ConversationChange, announce = true) {
    if (change.type === 'removed') this.waiting = this.waiting.filter((c) => c.id !== change.conversationId);
    else if (announce) this.waitWith(change.item);
    else this.waiting = applyWaitingChange(this.waiting, change.item, this.siteId || undefined);
  }

  private upsert(item: ConversationItem) {
    const isNew = !this.items.some((c) => c.id === item.id);
    this.items = applyChange(this.items, item, {
      filter: this.filter,
      siteId: this.siteId || undefined,
      search: this.search || undefined,
      meId: this.me?.id,
    });
    if (isNew && this.items.some((c) => c.id === item.id)) this.announce(`New conversation: ${item.title ?? 'New conversation'}.`);
  }

  private waitWith(item: ConversationItem) {
    const before = this.waiting.some((c) => c.id === item.id);
    this.waiting = applyWaitingChange(this.waiting, item, this.siteId || undefined);
    if (!before && this.waiting.some((c) => c.id === item.id))
      this.announce(`Waiting for a person: ${item.private ? 'a private conversation' : (item.title ?? 'New conversation')}.`);
  }

  private open(e: CustomEvent<{ conversationId: string }>) {
    location.hash = hrefOf({ view: 'transcript', conversationId: e.detail.conversationId, list: this.listState });
  }
}

/** Files were sent in the conversation: a paperclip and how many, named for screen readers ("3 attachments"). */
function paperclip(n: number) {
  const name = counted(n, 'attachment');
  return html`<span class="files" role="img" aria-label=${name} title=${name}
    ><svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false"
      ><path d="M10.5 4.5 5.6 9.4a1.3 1.3 0 0 0 1.8 1.8l5-5a2.6 2.6 0 0 0-3.7-3.7l-5 5a3.9 3.9 0 0 0 5.5 5.5L13.5 8.8" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" /></svg
    >${n}</span
  >`;
}
