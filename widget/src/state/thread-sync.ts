import { OfflineError } from './heed-api.ts';
import { markAnswered, mergeMessages, setMessageStates } from './thread-merge.ts';
import type { HeedStore } from './store.ts';
import type { ThreadMessage, VisitorEvent } from './types.ts';

/**
 * The threads half of the store, loaded with the panel: opened threads and their
 * messages, the visitor's optimistic sends, and the offline queue. It writes into the
 * store's state (`threads`), so components read one state.
 *
 * @example const threads = new ThreadSync(store); threads.send(conversationId, 'Hello');
 */
export class ThreadSync {
  /** sends not yet acknowledged, in the order the visitor made them */
  private outbox: ThreadMessage[] = [];
  private readonly inFlight = new Set<string>();

  constructor(private readonly store: HeedStore) {
    store.onEvent((e) => this.apply(e));
    // Back online (the browser says so, or the stream reconnected): deliver what waited.
    store.subscribe((s) => s.connection !== 'offline' && this.flush());
    store.unsent = () => this.outbox.length > 0;
  }

  /** Loads a thread's newest messages, keeping anything already shown (optimistic sends, events). */
  async load(conversationId: string): Promise<void> {
    const { conversation, messages } = await this.store.api.getConversation(conversationId);
    this.store.put(conversation);
    this.write(conversationId, mergeMessages(this.thread(conversationId) ?? [], messages));
  }

  /** Starts an empty thread for a conversation just created. */
  open(conversationId: string): void {
    if (!this.thread(conversationId)) this.write(conversationId, []);
  }

  /**
   * Shows the visitor's message at once with a pending mark and delivers it; offline, it
   * waits in the queue and goes out once when the connection is back. The same
   * `clientMessageId` makes any repeat harmless on the server. With `answersRequestId` it
   * answers that input request: once the server has it, the question shows as answered.
   */
  send(conversationId: string, content: string, answersRequestId?: string): ThreadMessage {
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
      answersRequestId,
    };
    this.outbox = [...this.outbox, message];
    this.write(conversationId, mergeMessages(this.thread(conversationId) ?? [], [message]));
    void this.deliver(message);
    return message;
  }

  async retry(conversationId: string): Promise<void> {
    await this.store.api.retry(conversationId);
    this.update(conversationId, (t) => setMessageStates(t, (m) => m.state === 'failed' && m.role === 'user', { state: 'pending' }));
  }

  private apply(event: VisitorEvent): void {
    const id = event.conversationId;
    switch (event.type) {
      case 'message.created':
        return this.update(id, (t) => mergeMessages(t, [event.message]));
      case 'run.started':
        return this.update(id, (t) => setMessageStates(t, (m) => event.claimedMessageIds.includes(m.id), { state: 'claimed', runId: event.runId }));
      case 'reply.completed':
      case 'reply.failed': {
        const state = event.type === 'reply.completed' ? 'answered' : 'failed';
        return this.update(id, (t) =>
          mergeMessages(setMessageStates(t, (m) => m.runId === event.runId && m.role === 'user' && m.state === 'claimed', { state }), [event.message]),
        );
      }
    }
  }

  /** Sends every queued message not already on its way. */
  private flush(): void {
    for (const m of this.outbox) void this.deliver(m);
  }

  private async deliver(message: ThreadMessage): Promise<void> {
    const { clientMessageId, conversationId, content, answersRequestId } = message;
    if (!clientMessageId || this.inFlight.has(clientMessageId) || this.store.state.connection === 'offline') return;
    this.inFlight.add(clientMessageId);
    try {
      const saved = await this.store.api.send({ conversationId, clientMessageId, content, ...(answersRequestId ? { answersRequestId } : {}) });
      this.outbox = this.outbox.filter((m) => m.clientMessageId !== clientMessageId);
      this.update(conversationId, (t) => mergeMessages(answersRequestId ? markAnswered(t, answersRequestId) : t, [saved]));
    } catch (err) {
      this.inFlight.delete(clientMessageId);
      // Offline, it stays queued: the `online` event or the reconnected stream sends it.
      if (err instanceof OfflineError) return this.store.reportOffline();
      this.outbox = this.outbox.filter((m) => m.clientMessageId !== clientMessageId);
      this.update(conversationId, (t) => t.map((m) => (m.clientMessageId === clientMessageId ? { ...m, pending: false, sendError: 'Not sent' } : m)));
    } finally {
      this.inFlight.delete(clientMessageId);
    }
  }

  private thread(conversationId: string) {
    return this.store.state.threads.get(conversationId);
  }

  /** Changes an opened thread; threads never opened are loaded whole when opened. */
  private update(conversationId: string, fn: (t: readonly ThreadMessage[]) => readonly ThreadMessage[]): void {
    const thread = this.thread(conversationId);
    if (thread) this.write(conversationId, fn(thread));
  }

  private write(conversationId: string, thread: readonly ThreadMessage[]): void {
    this.store.set({ threads: new Map(this.store.state.threads).set(conversationId, thread) });
  }
}
