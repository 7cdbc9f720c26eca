import type { AttachmentView } from './types.ts';

/** A visitor's send kept in storage until the server acknowledges it. */
export interface StoredSend {
  /** the visitor whose session wrote it: only that visitor's session delivers it */
  visitorId: string;
  clientMessageId: string;
  conversationId: string;
  content: string;
  answersRequestId?: string | null;
  /**
   * files already uploaded that go with it (their views, so the pending copy shows them after a
   * reload; the send carries their ids). A file still uploading when the page went is not here:
   * its upload is lost with the page.
   */
  attachments?: AttachmentView[];
  createdAt: string;
}

const isStoredSend = (e: unknown): e is StoredSend => {
  const s = e as Partial<StoredSend> | null;
  return (
    !!s &&
    typeof s.visitorId === 'string' &&
    typeof s.clientMessageId === 'string' &&
    typeof s.conversationId === 'string' &&
    typeof s.content === 'string' &&
    (s.attachments === undefined || Array.isArray(s.attachments))
  );
};

/**
 * Unacknowledged sends in the host page's localStorage, under one key per site and API
 * (`storageKey('outbox', …)`), oldest first, each tagged with its visitor. localStorage,
 * not IndexedDB: a write is done when `setItem` returns, so a send typed a moment before a
 * reload or a closed tab is already kept (an IndexedDB transaction still pending at unload
 * may never commit); other tabs hear every change through `storage` events; a queue of a
 * few messages is a few KB of the ~5 MB allowed; and the first chunk can tell with one
 * synchronous `getItem` whether anything waits. The key is removed when the queue empties.
 *
 * @example const outbox = new OutboxStorage(storageKey('outbox', site, api)); outbox.add(send);
 */
export class OutboxStorage {
  constructor(readonly key: string) {}

  /** Every kept send, oldest first; `null` when storage cannot be read (nothing is known then). */
  read(): StoredSend[] | null {
    try {
      const raw: unknown = JSON.parse(localStorage.getItem(this.key) ?? '[]');
      return Array.isArray(raw) ? raw.filter(isStoredSend) : [];
    } catch {
      return null;
    }
  }

  /** Appends a send; false when storage refused (privacy modes, quota, sandboxed frames). */
  add(send: StoredSend): boolean {
    const all = this.read();
    return !!all && this.write([...all, send]);
  }

  /** Replaces the send with the same `clientMessageId`, in place. */
  replace(send: StoredSend): void {
    const all = this.read();
    if (all) this.write(all.map((s) => (s.clientMessageId === send.clientMessageId ? send : s)));
  }

  /** Forgets a send (acknowledged, or refused for good). */
  remove(clientMessageId: string): void {
    const all = this.read();
    if (all?.some((s) => s.clientMessageId === clientMessageId)) this.write(all.filter((s) => s.clientMessageId !== clientMessageId));
  }

  /** Forgets every send to a conversation that was deleted (none of them can go out any more). */
  removeConversation(conversationId: string): void {
    const all = this.read();
    if (all?.some((s) => s.conversationId === conversationId)) this.write(all.filter((s) => s.conversationId !== conversationId));
  }

  /** Calls `fn` when another tab changes the queue; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    const listener = (e: StorageEvent) => (e.key === this.key || e.key === null) && fn();
    addEventListener('storage', listener);
    return () => removeEventListener('storage', listener);
  }

  /**
   * Runs `fn` while no other tab of this site runs it (the Web Locks API; a lock is freed
   * when its tab closes or reloads). Where locks are missing (pages not served over https)
   * `fn` runs at once: the `clientMessageId` still keeps a double send to one stored message.
   * So does a refused lock (opaque origins such as sandboxed frames throw `SecurityError`).
   */
  async exclusive(fn: () => Promise<void>): Promise<void> {
    const locks = (navigator as Partial<Navigator>).locks;
    if (!locks) return fn();
    let ran = false;
    try {
      await locks.request(this.key, () => ((ran = true), fn()));
    } catch (err) {
      if (ran) throw err;
      await fn();
    }
  }

  private write(all: readonly StoredSend[]): boolean {
    try {
      if (all.length === 0) localStorage.removeItem(this.key);
      else localStorage.setItem(this.key, JSON.stringify(all));
      return true;
    } catch {
      return false;
    }
  }
}
