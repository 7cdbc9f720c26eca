/** Where the visitor was: the panel open or not, and which thread. */
export interface ViewMemory {
  open: boolean;
  conversationId: string | null;
}

/**
 * Kept per tab (sessionStorage) under `key` (see `storageKey`), so a reload — even mid-reply — reopens the same thread,
 * where the reply keeps streaming, while a new tab starts closed.
 */
export function readView(key: string): ViewMemory {
  try {
    const raw = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Partial<ViewMemory>;
    return { open: raw.open === true, conversationId: typeof raw.conversationId === 'string' ? raw.conversationId : null };
  } catch {
    return { open: false, conversationId: null };
  }
}

export function writeView(key: string, patch: Partial<ViewMemory>): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ ...readView(key), ...patch }));
  } catch {
    // storage refused (privacy mode): only the resume-after-reload convenience is lost
  }
}
