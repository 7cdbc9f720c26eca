/**
 * The anonymous visitor token, kept per site key so two Heed sites on one origin never
 * share a visitor. Storage can be unavailable (privacy modes, sandboxed frames): then the
 * visitor simply starts fresh next time.
 */
const key = (siteKey: string) => `heed:visitor:${siteKey}`;

export function readToken(siteKey: string): string | undefined {
  try {
    return localStorage.getItem(key(siteKey)) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeToken(siteKey: string, token: string): void {
  try {
    localStorage.setItem(key(siteKey), token);
  } catch {
    // storage refused: the session still works for this page view
  }
}
