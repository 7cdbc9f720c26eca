import { countAttention, type AttentionCounts } from '../../../api/src/shared/attention.ts';
import { AuthError, OfflineError, type HeedApi, type SubscriptionState } from './heed-api.ts';
import { applyDelta, applySnapshot } from './reply-text.ts';
import { mergeMessages, setMessageStates, upsertConversation } from './merge.ts';
import type { ConnectionStatus, ConversationView, StreamingReply, ThreadMessage, VisitorEvent } from './types.ts';

/** Everything the widget renders, replaced (never mutated) on every change. */
export interface StoreState {
  /** most recently active first */
  conversations: readonly ConversationView[];
  /** messages of the threads that were opened, by conversation id */
  threads: ReadonlyMap<string, readonly ThreadMessage[]>;
  /** the reply streaming in each live conversation */
  replies: ReadonlyMap<string, StreamingReply>;
  connection: ConnectionStatus;
  siteName: string | null;
  /** the first conversation list has arrived */
  ready: boolean;
}

export interface StoreOptions {
  api: HeedApi;
  siteKey: string;
  /** where the visitor token lives between visits (localStorage in the page) */
  tokens?: { read(siteKey: string): string | undefined; write(siteKey: string, token: string): void };
  /** the window whose online/offline events the store follows */
  net?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator: { onLine: boolean } };
}

/** Longest wait between two attempts to start a session that failed. */
const MAX_BACKOFF_MS = 30_000;

/**
 * The widget's one source of state: it starts the visitor session, loads conversations,
 * follows the event stream and applies every event, and owns optimistic sends and the
 * offline queue. Components subscribe and render; they never hold server state.
 *
 * @example
 * const store = new HeedStore({ api: createTrpcApi(origin), siteKey });
 * store.subscribe((s) => render(s));
 * await store.start();
 */
export class HeedStore {
  state: StoreState = { conversations: [], threads: new Map(), replies: new Map(), connection: 'connecting', siteName: null, ready: false };

  private readonly listeners = new Set<(state: StoreState) => void>();
  /** sends not yet acknowledged, in the order the visitor made them */
  private outbox: ThreadMessage[] = [];
  private readonly inFlight = new Set<string>();
  private online: boolean;
  private subscription: SubscriptionState | 'signed_out' = 'connecting';
  private unsubscribe: (() => void) | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private stopped = false;

  constructor(private readonly opts: StoreOptions) {
    this.online = this.net.navigator.onLine;
  }

  private get net() {
    return this.opts.net ?? window;
  }

  /** Calls `fn` after every change; returns the unsubscribe. */
  subscribe(fn: (state: StoreState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Per-state counts over all conversations, by the shared attention rule. */
  get counts(): AttentionCounts {
    return countAttention(this.state.conversations);
  }

  /** True while a send has not been acknowledged (the page should warn before unloading). */
  get hasUnsentMessages(): boolean {
    return this.outbox.length > 0;
  }

  conversation(id: string | null): ConversationView | undefined {
    return id ? this.state.conversations.find((c) => c.id === id) : undefined;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.net.addEventListener('online', this.onOnline);
    this.net.addEventListener('offline', this.onOffline);
    await this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.net.removeEventListener('online', this.onOnline);
    this.net.removeEventListener('offline', this.onOffline);
  }

  /** Loads a thread's newest messages, keeping anything already shown (optimistic sends, events). */
  async loadThread(conversationId: string): Promise<void> {
    const { conversation, messages } = await this.opts.api.getConversation(conversationId);
    this.set({
      conversations: upsertConversation(this.state.conversations, conversation),
      threads: withEntry(this.state.threads, conversationId, mergeMessages(this.state.threads.get(conversationId) ?? [], messages)),
    });
  }

  async createConversation(): Promise<ConversationView> {
    const conversation = await this.opts.api.createConversation();
    this.set({
      conversations: upsertConversation(this.state.conversations, conversation),
      threads: withEntry(this.state.threads, conversation.id, this.state.threads.get(conversation.id) ?? []),
    });
    return conversation;
  }

  /**
   * Shows the visitor's message at once with a pending mark and delivers it; offline, it
   * waits in the queue and goes out once when the connection is back. The same
   * `clientMessageId` makes any repeat harmless on the server.
   */
  send(conversationId: string, content: string): ThreadMessage {
    const clientMessageId = crypto.randomUUID();
    const message: ThreadMessage = {
      id: `local:${clientMessageId}`,
      seq: '',
      conversationId,
      role: 'user',
      content,
      clientMessageId,
      state: 'pending',
      provenance: null,
      runId: null,
      error: null,
      createdAt: new Date().toISOString(),
      pending: true,
    };
    this.outbox = [...this.outbox, message];
    this.putMessages(conversationId, [message]);
    void this.deliver(message);
    return message;
  }

  async retry(conversationId: string): Promise<void> {
    await this.opts.api.retry(conversationId);
    const thread = this.state.threads.get(conversationId);
    if (thread) this.set({ threads: withEntry(this.state.threads, conversationId, thread.map((m) => (m.state === 'failed' && m.role === 'user' ? { ...m, state: 'pending' } : m))) });
  }

  /**
   * Records that the visitor saw the reply stamped `lastAssistantAt`. The local copy moves
   * at once so the row never flashes "New response" while the server answers.
   */
  async markRead(conversationId: string, lastAssistantAt: string): Promise<void> {
    const current = this.conversation(conversationId);
    if (current) this.set({ conversations: upsertConversation(this.state.conversations, { ...current, lastReadAt: lastAssistantAt }) });
    const updated = await this.opts.api.markRead(conversationId, lastAssistantAt);
    this.set({ conversations: upsertConversation(this.state.conversations, updated) });
  }

  /** Applies one event of the visitor's stream. Events replace state, so a repeat is harmless. */
  apply(event: VisitorEvent): void {
    const { conversationId } = event;
    switch (event.type) {
      case 'conversation.updated': {
        const replies = new Map(this.state.replies);
        const reply = replies.get(conversationId);
        if (reply && !event.conversation.live) replies.delete(conversationId);
        return this.set({ conversations: upsertConversation(this.state.conversations, event.conversation), replies });
      }
      case 'message.created':
        return this.putMessages(conversationId, [event.message]);
      case 'run.started': {
        this.updateThread(conversationId, (t) => setMessageStates(t, (m) => event.claimedMessageIds.includes(m.id), { state: 'claimed', runId: event.runId }));
        return this.setReply(conversationId, { runId: event.runId, text: '', after: event.claimedMessageIds });
      }
      case 'reply.snapshot':
      case 'reply.delta': {
        const prior = this.state.replies.get(conversationId);
        const current = prior?.runId === event.runId ? prior : { runId: event.runId, text: '' };
        const text = event.type === 'reply.delta' ? applyDelta(current.text, event) : applySnapshot(current.text, event);
        if (text !== current.text || !prior) this.setReply(conversationId, { ...current, text });
        return;
      }
      case 'reply.completed':
      case 'reply.failed': {
        const state = event.type === 'reply.completed' ? 'answered' : 'failed';
        this.updateThread(conversationId, (t) => setMessageStates(t, (m) => m.runId === event.runId && m.role === 'user' && m.state === 'claimed', { state }));
        this.putMessages(conversationId, [event.message]);
        if (this.state.replies.get(conversationId)?.runId === event.runId) this.setReply(conversationId, null);
        return;
      }
    }
  }

  private async connect(): Promise<void> {
    const { api, siteKey } = this.opts;
    const tokens = this.opts.tokens;
    try {
      const session = await api.startSession({ siteKey, visitorToken: tokens?.read(siteKey), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
      tokens?.write(siteKey, session.visitorToken);
      api.setToken(session.visitorToken);
      const { cursor, conversations } = await api.listConversations();
      if (this.stopped) return;
      this.attempts = 0;
      this.set({ conversations, siteName: session.site.name, ready: true });
      this.unsubscribe?.();
      this.unsubscribe = api.subscribe(cursor, {
        onEvent: (e) => this.apply(e),
        onState: (s) => this.setSubscription(s),
        onError: (err) => this.onSubscriptionError(err),
      });
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof AuthError) return this.setSubscription('signed_out');
      if (err instanceof OfflineError) this.online = false;
      this.setSubscription('reconnecting');
      this.scheduleConnect();
    }
  }

  private scheduleConnect(): void {
    clearTimeout(this.retryTimer);
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempts++);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private onSubscriptionError(err: unknown): void {
    // A refused token (e.g. the visitor was removed) gets one fresh session; anything else retries later.
    this.unsubscribe = null;
    if (err instanceof AuthError && this.opts.tokens) return void this.connect();
    this.setSubscription(err instanceof AuthError ? 'signed_out' : 'reconnecting');
    this.scheduleConnect();
  }

  private setSubscription(s: SubscriptionState | 'signed_out'): void {
    this.subscription = s;
    if (s === 'connected') {
      this.online = true;
      this.flush();
    }
    this.set({});
  }

  private readonly onOnline = () => {
    this.online = true;
    this.set({});
    this.flush();
    if (!this.unsubscribe && !this.stopped) void this.connect();
  };

  private readonly onOffline = () => {
    this.online = false;
    this.set({});
  };

  /** Sends every queued message not already on its way. */
  private flush(): void {
    for (const m of this.outbox) void this.deliver(m);
  }

  private async deliver(message: ThreadMessage): Promise<void> {
    const { clientMessageId, conversationId, content } = message;
    if (!clientMessageId || this.inFlight.has(clientMessageId) || !this.online) return;
    this.inFlight.add(clientMessageId);
    try {
      const saved = await this.opts.api.send({ conversationId, clientMessageId, content });
      this.outbox = this.outbox.filter((m) => m.clientMessageId !== clientMessageId);
      this.putMessages(conversationId, [saved]);
    } catch (err) {
      if (err instanceof OfflineError) {
        // stays queued; the `online` event or the reconnected stream sends it
        this.online = false;
        this.set({});
        return;
      }
      this.outbox = this.outbox.filter((m) => m.clientMessageId !== clientMessageId);
      this.updateThread(conversationId, (t) => t.map((m) => (m.clientMessageId === clientMessageId ? { ...m, pending: false, sendError: 'Not sent' } : m)));
    } finally {
      this.inFlight.delete(clientMessageId);
    }
  }

  private putMessages(conversationId: string, messages: ThreadMessage[]): void {
    const thread = this.state.threads.get(conversationId);
    // Threads never opened are loaded whole when opened; only opened ones follow events.
    if (!thread && messages.every((m) => !m.pending)) return;
    this.set({ threads: withEntry(this.state.threads, conversationId, mergeMessages(thread ?? [], messages)) });
  }

  private updateThread(conversationId: string, fn: (t: readonly ThreadMessage[]) => readonly ThreadMessage[]): void {
    const thread = this.state.threads.get(conversationId);
    if (thread) this.set({ threads: withEntry(this.state.threads, conversationId, fn(thread)) });
  }

  private setReply(conversationId: string, reply: StreamingReply | null): void {
    const replies = new Map(this.state.replies);
    if (reply) replies.set(conversationId, reply);
    else replies.delete(conversationId);
    this.set({ replies });
  }

  private set(patch: Partial<StoreState>): void {
    const connection: ConnectionStatus =
      this.subscription === 'signed_out' ? 'sign_in_needed' : !this.online ? 'offline' : this.subscription;
    this.state = { ...this.state, ...patch, connection };
    for (const fn of this.listeners) fn(this.state);
  }
}

function withEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V): Map<string, V> {
  return new Map(map).set(key, value);
}
