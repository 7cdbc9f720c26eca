import type { HeedStore } from '../state/store.ts';

/** Longest intent name the server accepts; a longer one is ignored here, unsent. */
export const INTENT_NAME_MAX = 64;

/**
 * `Heed('intent', name, data?)`: tells the server the visitor did something the site names
 * ("viewed_pricing"); the site's intent rules decide whether a message follows. Sent once a
 * session exists (a call queued before load, or made while the session starts, waits for it).
 * It never throws into the host page: a name that is not a string of 1–64 characters is
 * ignored, and a failed call is only a debug line (the server counts what it ignores).
 *
 * @example fireIntent(store, 'viewed_pricing', { plan: 'pro' });
 */
export function fireIntent(store: HeedStore, name: unknown, data?: unknown): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > INTENT_NAME_MAX) {
    console.debug('[heed] intent ignored: its name must be a string of 1–64 characters');
    return;
  }
  const send = () => {
    // a data value JSON cannot carry (a cycle, a BigInt) rejects here too
    store.api.fireIntent(name, data).catch((err) => console.debug('[heed] intent not sent', err));
  };
  if (store.state.visitorId) return send();
  const stop = store.subscribe((s) => {
    if (!s.visitorId) return;
    stop();
    send();
  });
}
