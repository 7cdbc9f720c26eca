import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { HeedStore } from './store.ts';

/**
 * Re-renders its host whenever the store changes. The store can be handed over late
 * (after connection) or swapped; the controller follows.
 *
 * @example private readonly sync = new StoreController(this, () => this.store);
 */
export class StoreController implements ReactiveController {
  private subscribed: HeedStore | undefined;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly store: () => HeedStore | undefined,
  ) {
    host.addController(this);
  }

  hostConnected() {
    this.follow();
  }

  hostUpdate() {
    this.follow();
  }

  hostDisconnected() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.subscribed = undefined;
  }

  private follow() {
    const store = this.store();
    if (store === this.subscribed) return;
    this.unsubscribe?.();
    this.subscribed = store;
    this.unsubscribe = store ? store.subscribe(() => this.host.requestUpdate()) : null;
  }
}
