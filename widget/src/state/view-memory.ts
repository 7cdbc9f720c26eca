/** Where the visitor was in this tab: the panel open or not, which thread, and whether they went home on purpose. */
export interface ViewMemory {
  open: boolean;
  conversationId: string | null;
  /** the visitor chose the home view (its Home button): opening the widget again keeps it instead of landing in a thread */
  home: boolean;
}

const NOWHERE: ViewMemory = { open: false, conversationId: null, home: false };

/**
 * Kept per tab (sessionStorage) under `key` (see `storageKey`), so a reload — even mid-reply — reopens the same thread,
 * where the reply keeps streaming, while a new tab starts closed (and, opened, lands where the visitor's attention is).
 */
export function readView(key: string): ViewMemory {
  try {
    const raw = JSON.parse(sessionStorage.getItem(key) ?? '{}') as Partial<ViewMemory>;
    return {
      open: raw.open === true,
      conversationId: typeof raw.conversationId === 'string' ? raw.conversationId : null,
      home: raw.home === true,
    };
  } catch {
    return NOWHERE;
  }
}

export function writeView(key: string, patch: Partial<ViewMemory>): void {
  try {
    sessionStorage.setItem(key, JSON.stringify({ ...readView(key), ...patch }));
  } catch {
    // storage refused (privacy mode): only the resume-after-reload convenience is lost
  }
}
