import { countAttention, type AttentionCounts } from '../../../api/src/shared/attention.ts';
import { AuthError, OfflineError, RefusedError, type HeedApi, type Identity, type SubscriptionState } from './heed-api.ts';
import { applyDelta, applySnapshot } from './reply-text.ts';
import { upsertConversation } from './conversation-list.ts';
import { arrival } from './arrival.ts';
import type {
  ConnectionStatus,
  ConversationView,
  ResumedSession,
  SiteBranding,
  StreamingReply,
  ThreadMessage,
  VisitorEvent,
} from './types.ts';

/** Everything the widget renders, replaced (never mutated) on every change. */
export interface StoreState {
  /** most recently active first */
  conversations: readonly ConversationView[];
  /** messages of the threads that were opened, by conversation id (kept by `ThreadSync`) */
  threads: ReadonlyMap<string, readonly ThreadMessage[]>;
  /** the reply streaming in each live conversation */
  replies: ReadonlyMap<string, StreamingReply>;
  connection: ConnectionStatus;
  /** the site's name and branding, once the session started */
  site: SiteBranding | null;
  /** the first conversation list has arrived */
  ready: boolean;
  /** the session's visitor (known once it started; another after `identify`) */
  visitorId: string | null;
  /** the server emails a visitor who left an address when a person replies (contact-email/) */
  emailReplies: boolean;
}

export interface StoreOptions {
  api: HeedApi;
  siteKey: string;
  /** where the visitor token lives between visits (localStorage in the page) */
  tokens?: { read(siteKey: string): string | undefined; write(siteKey: string, token: string): void };
  /** where unacknowledged sends wait across reloads (a localStorage key, see `OutboxStorage`); without it they live in memory */
  outboxKey?: string;
  /** where the visitor's answer to the email offer is kept (a localStorage key, contact-email/contact-choice.ts) */
  contactKey?: string;
  /** a reply email's link token (`#heed-resume=…`): the first session is its visitor's, if the server takes it */
  resumeToken?: string;
  /** called once the resumed session's conversations are in, with the conversation the link opens */
  onResumed?: (conversationId: string) => void;
}

/** Longest wait between two attempts to start a session that failed. */
const MAX_BACKOFF_MS = 30_000;
/** How soon a request that failed offline is tried again when the browser still claims to be online. */
const RECHECK_MS = 5_000;

/**
 * The widget's one source of state, in the first chunk: it starts the visitor session,
 * loads conversations, follows the event stream (conversations, streaming replies,
 * connection) and counts attention with the shared rule. Threads, sends and the offline
 * queue are `ThreadSync`'s, loaded with the panel. Components subscribe and render.
 *
 * @example
 * const store = new HeedStore({ api: createTrpcApi(origin), siteKey });
 * store.subscribe((s) => render(s));
 * await store.start();
 */
export class HeedStore {
  state: StoreState = {
    conversations: [],
    threads: new Map(),
    replies: new Map(),
    connection: 'connecting',
    site: null,
    ready: false,
    visitorId: null,
    emailReplies: false,
  };
  readonly api: HeedApi;
  /** set by ThreadSync: whether an unacknowledged send would be lost on unload (storage could not keep it) */
  unsent: () => boolean = () => false;

  private readonly listeners = new Set<(state: StoreState) => void>();
  private readonly eventListeners = new Set<(event: VisitorEvent) => void>();
  private online = navigator.onLine;
  private subscription: SubscriptionState | 'signed_out' | 'refused_origin' = 'connecting';
  private unsubscribe: (() => void) | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private recheckTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private stopped = true;
  private identity: Identity | null = null;
  /** a reply email's link token not exchanged yet */
  private resumeToken: string | undefined;
  private readonly told = new Set<string>();
  /** runs that completed, failed or were superseded: their late deltas are ignored */
  private readonly ended = new Set<string>();
  /** conversations deleted for good: a late view of one (a slow answer, an older event) never brings it back */
  private readonly gone = new Set<string>();

  constructor(readonly opts: StoreOptions) {
    this.api = opts.api;
    this.resumeToken = opts.resumeToken;
  }

  /** Calls `fn` after every change; returns the unsubscribe. */
  subscribe(fn: (state: StoreState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves once the session is up and the visitor's conversations are in (at once when they are). */
  whenReady(): Promise<void> {
    if (this.state.ready) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = this.subscribe((state) => {
        if (!state.ready) return;
        stop();
        resolve();
      });
    });
  }

  /** Calls `fn` with every event of the visitor's stream, after the store applied it. */
  onEvent(fn: (event: VisitorEvent) => void): () => void {
    this.eventListeners.add(fn);
    return () => this.eventListeners.delete(fn);
  }

  /** Per-state counts over all conversations, by the shared attention rule. */
  get counts(): AttentionCounts {
    return countAttention(this.state.conversations);
  }

  conversation(id: string | null): ConversationView | undefined {
    return id ? this.state.conversations.find((c) => c.id === id) : undefined;
  }

  /**
   * `Heed('identify', …)`: from now on the session is the host-verified user's (an
   * anonymous visitor's conversations join it). Before `start`, the first session is
   * already the user's; after, the session restarts as the user.
   */
  identify(identity: Identity | null): void {
    this.identity = identity;
    if (!this.stopped) void this.connect();
  }

  async start(): Promise<void> {
    this.stopped = false;
    addEventListener('online', this.onOnline);
    addEventListener('offline', this.onOffline);
    await this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.recheckTimer);
    this.unsubscribe?.();
    this.unsubscribe = null;
    removeEventListener('online', this.onOnline);
    removeEventListener('offline', this.onOffline);
  }

  /** A request failed for want of a network: show "offline" until it comes back. */
  reportOffline(): void {
    this.online = false;
    this.set({});
    // The browser may never fire `online` (it thought it was online all along): look again later.
    clearTimeout(this.recheckTimer);
    this.recheckTimer = setTimeout(() => navigator.onLine && this.onOnline(), RECHECK_MS);
  }

  /**
   * Whether a message can go out from here at all: a visitor token exists (or is on its way) and
   * the site allows this page. Without one a send is refused locally, so the visitor keeps
   * their words instead of watching them vanish.
   */
  get canSend(): boolean {
    return this.state.connection !== 'unavailable' && this.state.connection !== 'sign_in_needed';
  }

  async createConversation(): Promise<ConversationView> {
    const conversation = await this.api.createConversation();
    this.put(conversation);
    return conversation;
  }

  /** Puts a conversation view into the list (newest copy wins, read marker only moves forward). */
  put(conversation: ConversationView): void {
    if (this.gone.has(conversation.id)) return;
    this.set({ conversations: upsertConversation(this.state.conversations, conversation) });
  }

  /**
   * Records that the visitor saw the reply stamped `lastAssistantAt`. The local copy moves
   * at once so the row never flashes "New response" while the server answers.
   */
  async markRead(conversationId: string, lastAssistantAt: string): Promise<void> {
    const current = this.conversation(conversationId);
    if (current) this.put({ ...current, lastReadAt: lastAssistantAt });
    this.put(await this.api.markRead(conversationId, lastAssistantAt));
  }

  /** Applies one event of the visitor's stream. Events replace state, so a repeat is harmless. */
  apply(event: VisitorEvent): void {
    const { conversationId } = event;
    const reply = this.state.replies.get(conversationId);
    switch (event.type) {
      case 'conversation.updated':
        this.put(event.conversation);
        if (reply && !event.conversation.live) this.setReply(conversationId, null);
        break;
      case 'run.started':
        if (reply && reply.runId !== event.runId) this.endRun(reply.runId);
        this.setReply(conversationId, { runId: event.runId, text: '', after: event.claimedMessageIds });
        break;
      case 'reply.snapshot':
      case 'reply.delta': {
        // Text of a run that ended or was taken over (its worker froze past its lease) never
        // shows; nor does another run's while one is showing, unless the server calls it live.
        if (this.ended.has(event.runId)) break;
        if (reply && reply.runId !== event.runId && this.conversation(conversationId)?.liveRunId !== event.runId) break;
        const current = reply?.runId === event.runId ? reply : { runId: event.runId, text: '' };
        const text = event.type === 'reply.delta' ? applyDelta(current.text, event) : applySnapshot(current.text, event);
        if (text !== current.text || !reply) this.setReply(conversationId, { ...current, text });
        break;
      }
      case 'reply.completed':
      case 'reply.failed':
        this.endRun(event.runId);
        if (reply?.runId === event.runId) this.setReply(conversationId, null);
        break;
      case 'conversation.deleted': {
        // from this tab (`deleteConversation`), another, the console or the site's retention: gone everywhere
        this.gone.add(conversationId);
        const threads = new Map(this.state.threads);
        const replies = new Map(this.state.replies);
        threads.delete(conversationId);
        replies.delete(conversationId);
        this.set({ conversations: this.state.conversations.filter((c) => c.id !== conversationId), threads, replies });
      }
    }
    for (const fn of this.eventListeners) fn(event);
  }

  /** Replaces part of the state and tells every subscriber (ThreadSync writes `threads` here). */
  set(patch: Partial<StoreState>): void {
    this.state = { ...this.state, ...patch, connection: this.connectionStatus() };
    for (const fn of this.listeners) fn(this.state);
  }

  /** A refusal outranks being offline: coming back online would not change it. */
  private connectionStatus(): ConnectionStatus {
    if (this.subscription === 'refused_origin') return 'unavailable';
    if (this.subscription === 'signed_out') return 'sign_in_needed';
    return this.online ? this.subscription : 'offline';
  }

  private async connect(): Promise<void> {
    const { api, siteKey, tokens } = this.opts;
    try {
      const identity = this.identity ? { identity: this.identity } : {};
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const resumed = await this.resume(timeZone);
      const session =
        resumed ??
        (await api.startSession({
          siteKey,
          visitorToken: tokens?.read(siteKey),
          timeZone,
          ...arrival(),
          ...identity,
        }));
      tokens?.write(siteKey, session.visitorToken);
      api.setToken(session.visitorToken);
      const { cursor, conversations } = await api.listConversations();
      if (this.stopped) return;
      this.attempts = 0;
      this.set({ conversations, site: session.site, ready: true, visitorId: session.visitorId, emailReplies: !!session.emailReplies });
      if (resumed) this.opts.onResumed?.(resumed.conversationId);
      this.unsubscribe?.();
      this.unsubscribe = api.subscribe(cursor, {
        onEvent: (e) => this.apply(e),
        onState: (s) => this.setSubscription(s),
        onError: (err) => this.onSubscriptionError(err),
      });
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof RefusedError) return this.refused(err);
      if (err instanceof AuthError) return this.setSubscription('signed_out');
      if (err instanceof OfflineError) this.online = navigator.onLine;
      this.setSubscription('reconnecting');
      this.scheduleConnect();
    }
  }

  /**
   * The first session from a reply email's link (`resumeToken`): that visitor's, with the
   * conversation to open. The token is spent on its first answer; a refused one (forged,
   * altered, expired) leaves the usual session to start (null); offline, it waits for the next try.
   */
  private async resume(timeZone: string): Promise<ResumedSession | null> {
    const resumeToken = this.resumeToken;
    if (!resumeToken) return null;
    try {
      const identity = this.identity ? { identity: this.identity } : {};
      const session = await this.api.resumeSession({ siteKey: this.opts.siteKey, resumeToken, timeZone, ...identity });
      this.resumeToken = undefined;
      return session;
    } catch (err) {
      if (err instanceof OfflineError) throw err;
      this.resumeToken = undefined;
      return null;
    }
  }

  /**
   * A refusal the site owner must fix, said once in the console for them: an origin the
   * site does not allow, or an identity that does not verify (the visitor then goes on
   * anonymously, unless the site requires identity).
   */
  private refused(err: RefusedError): void {
    if (!this.told.has(err.reason)) console.error(`[heed] ${err.reason}: ${err.message}`);
    this.told.add(err.reason);
    if (err.reason.startsWith('identity_') && err.reason !== 'identity_required' && this.identity) {
      this.identity = null;
      return void this.connect();
    }
    this.setSubscription(err.reason === 'origin_not_allowed' ? 'refused_origin' : 'signed_out');
  }

  private scheduleConnect(): void {
    clearTimeout(this.retryTimer);
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempts++);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private onSubscriptionError(err: unknown): void {
    // A refused token (e.g. the visitor was removed) gets one fresh session; anything else retries later.
    this.unsubscribe = null;
    if (err instanceof RefusedError && err.reason === 'origin_not_allowed') return this.refused(err);
    if (err instanceof AuthError && this.opts.tokens) return void this.connect();
    this.setSubscription(err instanceof AuthError ? 'signed_out' : 'reconnecting');
    this.scheduleConnect();
  }

  private setSubscription(s: SubscriptionState | 'signed_out' | 'refused_origin'): void {
    this.subscription = s;
    if (s === 'connected') this.online = true;
    this.set({});
  }

  private readonly onOnline = () => {
    this.online = true;
    this.set({});
    if (!this.unsubscribe && !this.stopped) void this.connect();
  };

  private readonly onOffline = () => this.reportOffline();

  /** Remembers a run whose live text must not show again (a few hundred at most). */
  private endRun(runId: string): void {
    if (this.ended.size > 200) this.ended.clear();
    this.ended.add(runId);
  }

  private setReply(conversationId: string, reply: StreamingReply | null): void {
    const replies = new Map(this.state.replies);
    if (reply) replies.set(conversationId, reply);
    else replies.delete(conversationId);
    this.set({ replies });
  }
}
