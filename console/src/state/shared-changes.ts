import type { ConversationChange, ConversationUpsert } from './contract.ts';

/**
 * What the live list's subscription reports. A removal comes apart from the upserts, so a
 * view that only follows rows (an open transcript, the alerts) needs no word about it.
 */
export interface ChangeHandlers {
  onChange(change: ConversationUpsert): void;
  /** the conversation and everything in it was deleted: drop it */
  onRemoved?(conversationId: string): void;
  onState(state: 'connecting' | 'connected'): void;
  /** the stream ended for good (signed out, or refused) */
  onError(error: unknown): void;
}

/** What the stream itself reports: every change as the server sends it. */
export interface StreamHandlers extends Omit<ChangeHandlers, 'onChange' | 'onRemoved'> {
  onChange(change: ConversationChange): void;
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
export function sharedChanges(open: (h: StreamHandlers) => () => void, lingerMs = LINGER_MS) {
  const listeners = new Set<{ siteId?: string; h: ChangeHandlers }>();
  let close: (() => void) | null = null;
  let state: 'connecting' | 'connected' = 'connecting';
  let idle: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    state = 'connecting';
    close = open({
      onChange(change) {
        // a removal names no site (the row is gone): every view drops the id if it shows it
        if (change.type === 'removed') for (const l of [...listeners]) l.h.onRemoved?.(change.conversationId);
        else for (const l of [...listeners]) if (!l.siteId || change.item.siteId === l.siteId) l.h.onChange(change);
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
