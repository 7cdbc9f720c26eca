import type { Keys, Redis } from '../redis/client.ts';
import type { LiveEvent } from './event-types.ts';

/**
 * What travels over a visitor's Redis channel. `at` is the publisher's clock (ms since the
 * epoch) at publish, for the fan-out lag metric; messages without it are still valid.
 */
export type BusMessage = { kind: 'wake'; at?: number } | { kind: 'live'; at?: number; event: LiveEvent };

type Listener = (message: BusMessage) => void;

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

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly keys: Keys,
  ) {}

  /** Tells every subscriber of this visitor that new log rows are committed (called right after the commit). */
  async wake(visitorId: string): Promise<void> {
    const message: BusMessage = { kind: 'wake', at: Date.now() };
    await this.publisher.publish(this.keys.visitorChannel(visitorId), JSON.stringify(message));
  }

  async subscribe(visitorId: string, listener: Listener): Promise<() => Promise<void>> {
    const channel = this.keys.visitorChannel(visitorId);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      this.ready.set(channel, this.subscriber.subscribe(channel, (raw) => this.dispatch(channel, raw)));
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
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
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
