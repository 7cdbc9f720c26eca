import { OfflineError } from './heed-api.ts';
import { markAnswered, mergeMessages, setMessageStates } from './thread-merge.ts';
import { sendWait, type SendWait } from './send-wait.ts';
import type { HeedStore } from './store.ts';
import type { ThreadMessage, VisitorEvent } from './types.ts';

/**
 * The threads half of the store, loaded with the panel: opened threads and their
 * messages, the visitor's optimistic sends, and the offline queue. It writes into the
 * store's state (`threads`), so components read one state. A send the server refuses with
 * 429 (a rate limit, a full pending batch) stays queued, with every send behind it: each
 * shows when it goes out (`retryAt`), and the queue resumes by itself then, in order.
 *
 * @example const threads = new ThreadSync(store); threads.send(conversationId, 'Hello');
 */
export class ThreadSync {
  /** sends not yet acknowledged, in the order the visitor made them */
  private outbox: ThreadMessage[] = [];
  /** a delivery loop is running (sends go one at a time, in order) */
  private draining = false;
  /** the server asked the queue to wait (429) until `until` (ms since epoch) */
  private held: { until: number; untilReply: boolean; timer: ReturnType<typeof setTimeout> } | null = null;
  /** refusals in a row that named no time (backoff) */
  private refusals = 0;

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
      inputRequest: null,
      pending: true,
      answersRequestId,
      ...(this.held ? { retryAt: this.held.until } : {}),
    };
    this.outbox = [...this.outbox, message];
    this.write(conversationId, mergeMessages(this.thread(conversationId) ?? [], [message]));
    this.flush();
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
        // a reply emptied a pending batch: a wait the server did not time can end now
        if (this.held?.untilReply) this.resume();
        const state = event.type === 'reply.completed' ? 'answered' : 'failed';
        return this.update(id, (t) =>
          mergeMessages(setMessageStates(t, (m) => m.runId === event.runId && m.role === 'user' && m.state === 'claimed', { state }), [event.message]),
        );
      }
    }
  }

  /** Starts delivering the queue unless it already is being delivered. */
  private flush(): void {
    void this.drain();
  }

  /**
   * One send at a time, oldest first: the server orders messages by arrival, and a batch
   * lists them in that order, so two quick sends must never overtake each other. Offline,
   * the queue waits for the `online` event or the reconnected stream.
   */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.outbox.length > 0 && this.store.state.connection !== 'offline' && !this.held) {
        if (!(await this.deliver(this.outbox[0]!))) break;
      }
    } finally {
      this.draining = false;
    }
  }

  /** Sends one message; false when offline or told to wait (it stays queued), true once it left the queue. */
  private async deliver(message: ThreadMessage): Promise<boolean> {
    const { clientMessageId, conversationId, content, answersRequestId } = message;
    const leave = () => (this.outbox = this.outbox.filter((m) => m !== message));
    try {
      const saved = await this.store.api.send({ conversationId, clientMessageId: clientMessageId!, content, ...(answersRequestId ? { answersRequestId } : {}) });
      this.refusals = 0;
      leave();
      this.update(conversationId, (t) => mergeMessages(answersRequestId ? markAnswered(t, answersRequestId) : t, [saved]));
      return true;
    } catch (err) {
      if (err instanceof OfflineError) {
        this.store.reportOffline();
        return false;
      }
      const wait = sendWait(err, this.refusals);
      if (wait) {
        if (wait.untilReply) this.refusals++;
        this.hold(wait);
        return false;
      }
      if (answersRequestId) {
        // The question closed meanwhile (answered in another tab, or superseded): the
        // visitor's words still go out, next, as a plain message.
        const plain = { ...message, answersRequestId: null };
        this.outbox = this.outbox.map((m) => (m === message ? plain : m));
        this.update(conversationId, (t) => t.map((m) => (m.clientMessageId === clientMessageId ? plain : m)));
        return true;
      }
      leave();
      this.update(conversationId, (t) => t.map((m) => (m.clientMessageId === clientMessageId ? { ...m, pending: false, sendError: 'Not sent' } : m)));
      return true;
    }
  }

  /** Pauses the queue for `wait`; every queued send shows when it goes out. */
  private hold(wait: SendWait): void {
    if (this.held) clearTimeout(this.held.timer);
    this.held = { until: Date.now() + wait.ms, untilReply: wait.untilReply, timer: setTimeout(() => this.resume(), wait.ms) };
    this.markQueued();
  }

  /** Ends a wait and delivers the queue, oldest first. */
  private resume(): void {
    if (!this.held) return;
    clearTimeout(this.held.timer);
    this.held = null;
    this.markQueued();
    this.flush();
  }

  /** Shows the wait (or its end) on every queued send. */
  private markQueued(): void {
    const queued = new Set(this.outbox.map((m) => m.clientMessageId));
    const retryAt = this.held?.until;
    for (const conversationId of new Set(this.outbox.map((m) => m.conversationId))) {
      this.update(conversationId, (t) => t.map((m) => (m.pending && queued.has(m.clientMessageId) ? { ...m, retryAt } : m)));
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
