/** Where the visitor was: the panel open or not, and which thread. */
export interface ViewMemory {
  open: boolean;
  conversationId: string | null;
}

const key = (siteKey: string) => `heed:view:${siteKey}`;

/**
 * Kept per tab (sessionStorage), so a reload — even mid-reply — reopens the same thread,
 * where the reply keeps streaming, while a new tab starts closed.
 */
export function readView(siteKey: string): ViewMemory {
  try {
    const raw = JSON.parse(sessionStorage.getItem(key(siteKey)) ?? '{}') as Partial<ViewMemory>;
    return { open: raw.open === true, conversationId: typeof raw.conversationId === 'string' ? raw.conversationId : null };
  } catch {
    return { open: false, conversationId: null };
  }
}

export function writeView(siteKey: string, patch: Partial<ViewMemory>): void {
  try {
    sessionStorage.setItem(key(siteKey), JSON.stringify({ ...readView(siteKey), ...patch }));
  } catch {
    // storage refused (privacy mode): only the resume-after-reload convenience is lost
  }
}
