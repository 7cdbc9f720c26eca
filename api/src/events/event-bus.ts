import type { Keys, Redis } from '../redis/client.ts';
import type { LiveEvent } from './event-types.ts';

/**
 * What travels over a visitor's Redis channel. `at` is the publisher's clock (ms since the
 * epoch) at publish, for the fan-out lag metric; messages without it are still valid.
 */
export type BusMessage =
  | { kind: 'wake'; at?: number }
  | { kind: 'live'; at?: number; event: LiveEvent }
  /** the visitor's data was erased: their streams end as if their ticket were forged */
  | { kind: 'erased'; at?: number };

type Listener = (message: BusMessage) => void;

/**
 * What travels over the console's one channel: conversations whose state changed (committed),
 * any site, and operators whose access changed (a session revoked, the operator removed, their
 * sites changed). Console streams re-read those conversations for their operator, and check
 * their session again when their operator is named.
 */
export interface ConsoleMessage {
  conversationIds: string[];
  operatorIds?: string[];
  /** the publisher's clock (ms since the epoch) */
  at: number;
}

type ConsoleListener = (message: ConsoleMessage) => void;

/**
 * Cross-process fan-out over Redis pub/sub. One subscriber connection per process,
 * one Redis subscription per visitor channel however many local listeners it has.
 * Durable events only send a `wake` (subscribers read the log itself, which is ordered);
 * live events (reply deltas) travel whole.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** resolves once Redis confirmed the channel subscription; shared by concurrent subscribers */
  private readonly ready = new Map<string, Promise<unknown>>();
  private readonly consoleListeners = new Set<ConsoleListener>();
  private consoleReady: Promise<unknown> | null = null;
  /** UNSUBSCRIBEs in flight, by channel: a new subscription of the channel waits for its one */
  private readonly leaving = new Map<string, Promise<void>>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly keys: Keys,
    /** a wake-up after a commit could not be sent (Redis away): subscribers see the rows on their next read */
    readonly notifyFailed: (err: unknown) => void = () => {},
  ) {}

  /** Tells every subscriber of this visitor that new log rows are committed (called right after the commit). */
  async wake(visitorId: string): Promise<void> {
    const message: BusMessage = { kind: 'wake', at: Date.now() };
    await this.publisher.publish(this.keys.visitorChannel(visitorId), JSON.stringify(message));
  }

  /** Ends every open stream of these visitors, in every process (called after the erasure's commit). */
  async erased(visitorIds: readonly string[]): Promise<void> {
    const message = JSON.stringify({ kind: 'erased', at: Date.now() } satisfies BusMessage);
    await Promise.all(visitorIds.map((id) => this.publisher.publish(this.keys.visitorChannel(id), message)));
  }

  /**
   * Tells the console's streams which conversations changed (called right after a commit).
   * One channel for every site: a deployment's operators see all its sites, and each stream
   * filters by its own scope when it re-reads.
   */
  async touchConversations(conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    const message: ConsoleMessage = { conversationIds: [...new Set(conversationIds)], at: Date.now() };
    await this.publisher.publish(this.keys.consoleChannel(), JSON.stringify(message));
  }

  /**
   * Tells the console's streams that these operators' access changed (called after the commit
   * that changed it): their open streams check their session at once instead of at their next
   * periodic check.
   */
  async operatorsChanged(operatorIds: readonly string[]): Promise<void> {
    if (operatorIds.length === 0) return;
    const message: ConsoleMessage = { conversationIds: [], operatorIds: [...new Set(operatorIds)], at: Date.now() };
    await this.publisher.publish(this.keys.consoleChannel(), JSON.stringify(message));
  }

  /** Listens to the console channel (one Redis subscription per process, however many streams). */
  async subscribeConsole(listener: ConsoleListener): Promise<() => Promise<void>> {
    const channel = this.keys.consoleChannel();
    this.consoleListeners.add(listener);
    this.consoleReady ??= this.join(channel, (raw) => {
      let message: ConsoleMessage;
      try {
        message = JSON.parse(raw) as ConsoleMessage;
      } catch {
        return;
      }
      if (!Array.isArray(message.conversationIds)) return;
      for (const l of this.consoleListeners) l(message);
    });
    await this.consoleReady;
    return async () => {
      this.consoleListeners.delete(listener);
      if (this.consoleListeners.size > 0 || !this.consoleReady) return;
      this.consoleReady = null;
      await this.leave(channel);
    };
  }

  async subscribe(visitorId: string, listener: Listener): Promise<() => Promise<void>> {
    const channel = this.keys.visitorChannel(visitorId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      this.ready.set(
        channel,
        this.join(channel, (raw) => this.dispatch(channel, raw)),
      );
    }
    set.add(listener);
    await this.ready.get(channel);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.listeners.delete(channel);
      this.ready.delete(channel);
      await this.leave(channel);
    };
  }

  /**
   * Subscribes once an earlier UNSUBSCRIBE of the channel is through. Otherwise the client,
   * seeing the channel still subscribed, sends no SUBSCRIBE, and the late UNSUBSCRIBE reply
   * drops the new listener with the old: a stream that reconnects at once (a reload, a
   * console view switch) would hear nothing until its catch-up read.
   */
  private async join(channel: string, handler: (raw: string) => void): Promise<void> {
    await this.leaving.get(channel);
    await this.subscriber.subscribe(channel, handler);
  }

  private async leave(channel: string): Promise<void> {
    const done: Promise<void> = this.subscriber
      .unsubscribe(channel)
      .catch(() => undefined)
      .then(() => {
        if (this.leaving.get(channel) === done) this.leaving.delete(channel);
      });
    this.leaving.set(channel, done);
    await done;
  }

  private dispatch(channel: string, raw: string): void {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    for (const listener of this.listeners.get(channel) ?? []) listener(message);
  }
}
