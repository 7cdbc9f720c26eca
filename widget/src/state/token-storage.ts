/**
 * Storage keys of one embed: per site key and API, so two Heed sites on one page never
 * share a visitor, and a token one Heed server issued is never sent to another (a page
 * that moves `data-api` from staging to production starts a fresh visitor there).
 *
 * @example storageKey('visitor', 'demo', 'https://chat.example/') === 'heed:visitor:demo@https://chat.example/'
 */
export const storageKey = (kind: 'visitor' | 'view' | 'outbox' | 'brand' | 'contact', siteKey: string, apiBase: string) =>
  `heed:${kind}:${siteKey}@${apiBase}`;

/**
 * The anonymous visitor token in the host page's localStorage. Storage can be unavailable
 * (privacy modes, sandboxed frames): then the visitor simply starts fresh next time.
 */
export function tokenStorage(apiBase: string): { read(siteKey: string): string | undefined; write(siteKey: string, token: string): void } {
  return {
    read(siteKey) {
      try {
        return localStorage.getItem(storageKey('visitor', siteKey, apiBase)) ?? undefined;
      } catch {
        return undefined;
      }
    },
    write(siteKey, token) {
      try {
        localStorage.setItem(storageKey('visitor', siteKey, apiBase), token);
      } catch {
        // storage refused: the session still works for this page view
      }
    },
  };
}
