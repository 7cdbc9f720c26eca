import { OfflineError } from './heed-api.ts';
import { markAnswered, mergeMessages, setMessageStates } from './thread-merge.ts';
import { sendWait, type SendWait } from './send-wait.ts';
import { OutboxStorage, type StoredSend } from './outbox-storage.ts';
import { TypingSignal } from './typing-signal.ts';
import type { HeedStore } from './store.ts';
import type { AttachmentView, ThreadMessage, VisitorEvent } from './types.ts';

/** The one ThreadSync of each store: the panel and the first chunk's outbox check share it. */
const instances = new WeakMap<HeedStore, ThreadSync>();

/**
 * The threads half of the store, loaded with the panel: opened threads and their
 * messages, the visitor's optimistic sends, and the offline queue. It writes into the
 * store's state (`threads`), so components read one state. A send the server refuses with
 * 429 (a rate limit, a full pending batch) stays queued, with every send behind it: each
 * shows when it goes out (`retryAt`), and the queue resumes by itself then, in order.
 *
 * With the store's `outboxKey`, the queue is also kept in storage (`OutboxStorage`), per
 * site, API and visitor: after a reload, or in another tab, the visitor's unacknowledged
 * sends show as pending again and go out once, in order; one tab at a time delivers them
 * (a Web Lock), re-reading the stored queue under the lock, so a send another tab
 * delivered is never sent again. Only sends storage refused keep `store.unsent()` true. A send
 * with files keeps their views (already uploaded) and goes out with their ids; files still
 * uploading in the composer when the page goes are lost with it, like the words not yet sent. A
 * conversation deleted (`conversation.deleted`, from any tab) takes its queued sends with it.
 * Constructing it twice for one store returns the first instance.
 *
 * @example const threads = new ThreadSync(store); threads.send(conversationId, 'Hello');
 */
export class ThreadSync {
  /** tells the server the visitor types after a send, so its run waits for the rest */
  private readonly typing!: TypingSignal;
  /** sends not yet acknowledged, in the order the visitor made them */
  private outbox: ThreadMessage[] = [];
  /** `clientMessageId`s of the outbox sends that storage holds */
  private readonly saved = new Set<string>();
  private readonly storage: OutboxStorage | null = null;
  /** the visitor whose stored sends this tab shows and delivers */
  private visitorId: string | null = null;
  /** a delivery loop is running (sends go one at a time, in order) */
  private draining = false;
  /** something asked for delivery while the loop was finishing: look once more */
  private again = false;
  /** the server asked the queue to wait (429) until `until` (ms since epoch) */
  private held: { until: number; untilReply: boolean; timer: ReturnType<typeof setTimeout> } | null = null;
  /** refusals in a row that named no time (backoff) */
  private refusals = 0;

  constructor(private readonly store: HeedStore) {
    const existing = instances.get(store);
    // biome-ignore lint/correctness/noConstructorReturn: one queue per store, whoever asks first
    if (existing) return existing;
    instances.set(store, this);
    this.storage = store.opts.outboxKey ? new OutboxStorage(store.opts.outboxKey) : null;
    this.typing = new TypingSignal((conversationId, after) => store.api.typing(conversationId, after));
    store.onEvent((e) => this.apply(e));
    store.subscribe((s) => {
      if (s.visitorId !== this.visitorId) this.changeVisitor(s.visitorId);
      // Back online (the browser says so, or the stream reconnected): deliver what waited.
      if (s.connection !== 'offline') this.flush();
    });
    this.storage?.onChange(() => {
      this.adopt();
      this.flush();
    });
    store.unsent = () => this.outbox.some((m) => !this.saved.has(m.clientMessageId!));
    this.changeVisitor(store.state.visitorId);
    this.flush();
  }

  /** How many sends wait for the server's acknowledgement. */
  get queued(): number {
    return this.outbox.length;
  }

  /** Loads a thread's newest messages, keeping anything already shown (optimistic sends, events). */
  async load(conversationId: string): Promise<void> {
    const { conversation, messages } = await this.store.api.getConversation(conversationId);
    this.store.put(conversation);
    const queued = this.outbox.filter((m) => m.conversationId === conversationId);
    this.write(conversationId, mergeMessages(this.thread(conversationId) ?? [], [...messages, ...queued]));
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
   * `attachments` are files already uploaded (the send carries their ids; `content` may be ''):
   * the pending copy shows them at once, and storage keeps them with the send.
   */
  send(conversationId: string, content: string, answersRequestId?: string, attachments?: readonly AttachmentView[]): ThreadMessage {
    const message = this.pendingCopy({
      clientMessageId: crypto.randomUUID(),
      conversationId,
      content,
      answersRequestId,
      attachments: attachments && [...attachments],
      createdAt: new Date().toISOString(),
    });
    this.outbox = [...this.outbox, message];
    this.typing.sent(conversationId, message.clientMessageId!);
    this.save(message);
    this.write(conversationId, mergeMessages(this.thread(conversationId) ?? [], [message]));
    this.flush();
    return message;
  }

  /** A keystroke in the conversation's composer: after a send, its run waits for the rest of the words. */
  typed(conversationId: string): void {
    this.typing.typed(conversationId);
  }

  /**
   * Asks for the rest of the reply `messageId`, cut short. The request shows at once (as nothing:
   * its row hides the Continue button) and is dropped again if the server refuses it, so the
   * button comes back. Not queued offline: a click that did not reach the server can be repeated.
   */
  async continueReply(conversationId: string, messageId: string): Promise<void> {
    const clientMessageId = crypto.randomUUID();
    const request = {
      ...this.pendingCopy({ clientMessageId, conversationId, content: '', createdAt: new Date().toISOString() }),
      provenance: 'continue' as const,
    };
    this.update(conversationId, (t) => mergeMessages(t, [request]));
    try {
      const saved = await this.store.api.continueReply({ conversationId, messageId, clientMessageId });
      this.update(conversationId, (t) => mergeMessages(t, [saved]));
    } catch {
      this.update(conversationId, (t) => t.filter((m) => m.clientMessageId !== clientMessageId));
    }
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
        this.typing.claimed(id);
        return this.update(id, (t) =>
          setMessageStates(t, (m) => event.claimedMessageIds.includes(m.id), { state: 'claimed', runId: event.runId }),
        );
      case 'reply.completed':
      case 'reply.failed': {
        // a reply emptied a pending batch: a wait the server did not time can end now
        if (this.held?.untilReply) this.resume();
        const state = event.type === 'reply.completed' ? 'answered' : 'failed';
        return this.update(id, (t) =>
          mergeMessages(
            setMessageStates(t, (m) => m.runId === event.runId && m.role === 'user' && m.state === 'claimed', { state }),
            [event.message],
          ),
        );
      }
      case 'conversation.deleted':
        // its queued sends would only be refused: they leave the queue, here and in storage
        this.typing.claimed(id);
        this.outbox = this.outbox.filter((m) => m.conversationId !== id);
        this.storage?.removeConversation(id);
    }
  }

  /** A new session's visitor: this tab now shows and delivers that visitor's stored sends. */
  private changeVisitor(visitorId: string | null): void {
    this.visitorId = visitorId;
    // sends typed before the session started belong to its visitor
    for (const m of this.outbox) this.save(m);
    this.adopt();
  }

  /** Keeps a send in storage (once the visitor is known); unsaved, it makes `unsent()` true. */
  private save(m: ThreadMessage): void {
    const id = m.clientMessageId!;
    if (!this.storage || !this.visitorId || this.saved.has(id)) return;
    if (this.storage.add({ visitorId: this.visitorId, ...storedSend(m) })) this.saved.add(id);
  }

  /**
   * Makes the queue the stored one, for this visitor: sends another tab (or the page
   * before a reload) kept join it as pending, sends another tab delivered leave it, sends
   * storage never took stay at the end. Storage unreadable: the queue stays as it is.
   */
  private adopt(): void {
    const stored = this.visitorId ? this.storage?.read()?.filter((s) => s.visitorId === this.visitorId) : undefined;
    if (!stored) return;
    const mine = new Map(this.outbox.map((m) => [m.clientMessageId!, m]));
    const kept = stored.map((s) => mine.get(s.clientMessageId) ?? this.restore(s));
    const wasSaved = new Set(this.saved);
    this.saved.clear();
    for (const s of stored) this.saved.add(s.clientMessageId);
    // a send that was stored and is not any more was delivered by another tab (or is another visitor's)
    const neverStored = this.outbox.filter((m) => !wasSaved.has(m.clientMessageId!) && !this.saved.has(m.clientMessageId!));
    this.outbox = [...kept, ...neverStored];
  }

  /** A stored send shown again as pending (in its thread, if that thread is open). */
  private restore(s: StoredSend): ThreadMessage {
    const message = this.pendingCopy(s);
    this.update(s.conversationId, (t) => mergeMessages(t, [message]));
    return message;
  }

  /** The visitor's optimistic copy of a send, shown pending until the server has it. */
  private pendingCopy(s: Omit<StoredSend, 'visitorId'>): ThreadMessage {
    return {
      id: `local:${s.clientMessageId}`,
      seq: '',
      conversationId: s.conversationId,
      role: 'user',
      content: s.content,
      clientMessageId: s.clientMessageId,
      state: 'pending',
      cutShort: false,
      sources: [],
      provenance: null,
      provenanceLabel: null,
      runId: null,
      error: null,
      createdAt: s.createdAt,
      inputRequest: null,
      attachments: s.attachments ?? [],
      pending: true,
      answersRequestId: s.answersRequestId,
      ...(this.held ? { retryAt: this.held.until } : {}),
    };
  }

  /** Starts delivering the queue unless it already is being delivered (or cannot be now). */
  private flush(): void {
    if (this.outbox.length === 0 || this.store.state.connection === 'offline' || this.held) return;
    if (this.draining) this.again = true;
    else void this.drain();
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
      const run = async () => {
        // under the lock, the stored queue is the truth: another tab may have delivered some of it
        while ((this.adopt(), this.outbox.length > 0) && this.store.state.connection !== 'offline' && !this.held) {
          if (!(await this.deliver(this.outbox[0]!))) break;
        }
      };
      await (this.storage && this.visitorId ? this.storage.exclusive(run) : run());
    } finally {
      this.draining = false;
      // a send made while the loop let go of the lock would otherwise wait for the next event
      if (this.again) {
        this.again = false;
        this.flush();
      }
    }
  }

  /** Sends one message; false when offline or told to wait (it stays queued), true once it left the queue. */
  private async deliver(message: ThreadMessage): Promise<boolean> {
    const { clientMessageId, conversationId, content, answersRequestId, attachments } = message;
    const leave = () => {
      this.outbox = this.outbox.filter((m) => m !== message);
      this.saved.delete(clientMessageId!);
      this.storage?.remove(clientMessageId!);
    };
    try {
      const saved = await this.store.api.send({
        conversationId,
        clientMessageId: clientMessageId!,
        content,
        ...(answersRequestId ? { answersRequestId } : {}),
        ...(attachments?.length ? { attachmentIds: attachments.map((a) => a.id) } : {}),
      });
      this.refusals = 0;
      leave();
      this.typing.delivered(conversationId, clientMessageId!);
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
        if (this.visitorId && this.saved.has(clientMessageId!)) this.storage?.replace({ visitorId: this.visitorId, ...storedSend(plain) });
        this.update(conversationId, (t) => t.map((m) => (m.clientMessageId === clientMessageId ? plain : m)));
        return true;
      }
      leave();
      this.update(conversationId, (t) =>
        t.map((m) => (m.clientMessageId === clientMessageId ? { ...m, pending: false, sendError: 'Not sent' } : m)),
      );
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

/** What storage keeps of a queued send (besides its visitor). */
function storedSend(m: ThreadMessage): Omit<StoredSend, 'visitorId'> {
  const { clientMessageId, conversationId, content, answersRequestId, attachments, createdAt } = m;
  return {
    clientMessageId: clientMessageId!,
    conversationId,
    content,
    answersRequestId,
    createdAt,
    ...(attachments?.length ? { attachments } : {}),
  };
}
