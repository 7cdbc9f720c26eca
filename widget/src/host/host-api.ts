import type { HeedStore } from '../state/store.ts';
import type { HeedWidget } from '../widget/widget.component.ts';
import { fireIntent } from './intent.ts';

export type HostEvent = 'unread' | 'open' | 'close' | 'message';
type Listener = (payload?: unknown) => void;

/** `window.Heed(command, ...args)`; before the widget loads, calls wait in `Heed.q`. */
export interface HeedCommand {
  (command: string, ...args: unknown[]): unknown;
  q?: ArrayLike<unknown>[];
  booted?: boolean;
}

export interface HostApiOptions {
  widget: HeedWidget;
  store: HeedStore;
  /** `Heed('identify', { userId, token })`: the session becomes the host-verified user's */
  identify?: (identity: unknown) => void;
}

/**
 * The site owner's API, Intercom-style:
 * `Heed('open' | 'close' | 'toggle')`, `Heed('identify', { userId, token })`,
 * `Heed('intent', name, data?)` (see `fireIntent`),
 * `Heed('on' | 'off', 'unread' | 'open' | 'close' | 'message', fn)`.
 * 'unread' listeners get `{ unread, live, inputNeeded }` whenever the counts change;
 * 'message' listeners get each new reply, an operator's messages and unsolicited replies
 * included. Returns the function to install as `window.Heed`.
 *
 * @example Heed('on', 'unread', (counts) => updateMyBadge(counts));
 */
export function createHostApi({ widget, store, identify }: HostApiOptions): {
  command: HeedCommand;
  notifyCounts: (counts: unknown) => void;
} {
  const listeners = new Map<HostEvent, Set<Listener>>();
  const fire = (event: HostEvent, payload?: unknown) => {
    for (const fn of listeners.get(event) ?? []) {
      try {
        fn(payload);
      } catch (err) {
        console.error('[heed] a host listener failed', err);
      }
    }
  };

  widget.addEventListener('heed-opened', () => fire('open'));
  widget.addEventListener('heed-closed', () => fire('close'));
  store.onEvent((e) => {
    if (e.type === 'reply.completed' || e.type === 'reply.failed' || (e.type === 'message.created' && e.message.role === 'operator'))
      fire('message', e.message);
  });

  const command: HeedCommand = (name, ...args) => {
    switch (name) {
      case 'open':
        return widget.show();
      case 'close':
        return widget.hide();
      case 'toggle':
        return widget.toggle();
      case 'identify':
        return identify?.(args[0]);
      case 'intent':
        return fireIntent(store, args[0], args[1]);
      case 'on':
      case 'off': {
        const [event, fn] = args as [HostEvent, Listener];
        if (typeof fn !== 'function') return;
        const set = listeners.get(event) ?? new Set();
        listeners.set(event, set);
        if (name === 'on') set.add(fn);
        else set.delete(fn);
        return;
      }
      default:
        console.warn(`[heed] unknown command "${name}"`);
    }
  };
  command.booted = true;
  return { command, notifyCounts: (counts) => fire('unread', counts) };
}
