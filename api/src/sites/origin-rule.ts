/**
 * Whether a browser on `origin` may use a site whose allowed origins are `allowed`.
 * - An empty list allows any origin (the console warns about it).
 * - No `Origin` header: not a browser page (a server, curl), which could send any Origin
 *   it liked, so refusing would protect nothing; the visitor token still applies.
 * - Entries are origins (`https://shop.example`, `http://localhost:3001`); `https://*.shop.example`
 *   allows every subdomain (not the bare domain). Case and default ports don't matter.
 *
 * @example originAllowed(['https://shop.example'], 'https://SHOP.example:443') === true
 */
export function originAllowed(allowed: readonly string[], origin: string | undefined | null): boolean {
  if (allowed.length === 0 || !origin) return true;
  const given = normalizeOrigin(origin);
  if (!given) return false;
  return allowed.some((entry) => {
    const wildcard = /^(https?):\/\/\*\.(.+)$/i.exec(entry.trim());
    if (!wildcard) return normalizeOrigin(entry) === given;
    const base = normalizeOrigin(`${wildcard[1]}://${wildcard[2]}`);
    if (!base) return false;
    const [scheme, host] = base.split('://') as [string, string];
    return given.startsWith(`${scheme}://`) && given.slice(scheme.length + 3).endsWith(`.${host}`);
  });
}

/** `scheme://host[:port]` lower-cased without a default port, or null when it is not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}
