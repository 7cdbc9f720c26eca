import type { ConversationChange } from './contract.ts';

/** What the live list's subscription reports. */
export interface ChangeHandlers {
  onChange(change: ConversationChange): void;
  onState(state: 'connecting' | 'connected'): void;
  /** the stream ended for good (signed out, or refused) */
  onError(error: unknown): void;
}

/** How long the stream stays open with nobody listening: longer than a hop from the list to a transcript and back. */
export const LINGER_MS = 30_000;

/**
 * One live stream of conversation changes per console tab, shared by every view that
 * listens (the list, an open transcript), each filtered to its site here rather than by a
 * connection of its own. Moving between views then neither opens nor closes a connection
 * (each used to cost an SSE handshake and a server-side channel subscription), and a
 * browser's six connections per host are never spent on the console's own streams. The
 * stream opens with the first listener and closes `LINGER_MS` after the last one left, or at
 * once when it fails for good (the next listener opens a new one).
 *
 * `closeNow()` ends it at once, listeners or not (signing out: a revoked session's open
 * stream must not go on delivering).
 *
 * @example const changes = sharedChanges((h) => openTheStream(h)); const stop = changes.listen(siteId, handlers);
 */
export function sharedChanges(open: (h: ChangeHandlers) => () => void, lingerMs = LINGER_MS) {
  const listeners = new Set<{ siteId?: string; h: ChangeHandlers }>();
  let close: (() => void) | null = null;
  let state: 'connecting' | 'connected' = 'connecting';
  let idle: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    state = 'connecting';
    close = open({
      onChange(change) {
        for (const l of [...listeners]) if (!l.siteId || change.item.siteId === l.siteId) l.h.onChange(change);
      },
      onState(s) {
        state = s;
        for (const l of [...listeners]) l.h.onState(s);
      },
      onError(err) {
        close = null;
        for (const l of [...listeners]) l.h.onError(err);
      },
    });
  };

  const listen = (siteId: string | undefined, h: ChangeHandlers): (() => void) => {
    clearTimeout(idle);
    const entry = { siteId, h };
    listeners.add(entry);
    if (close) {
      const now = state;
      queueMicrotask(() => listeners.has(entry) && h.onState(now));
    } else start();
    return () => {
      if (!listeners.delete(entry) || listeners.size > 0) return;
      idle = setTimeout(() => {
        if (listeners.size > 0) return;
        close?.();
        close = null;
      }, lingerMs);
    };
  };
  const closeNow = () => {
    clearTimeout(idle);
    listeners.clear();
    close?.();
    close = null;
  };
  return { listen, closeNow };
}
