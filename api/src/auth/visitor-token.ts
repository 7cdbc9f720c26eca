import { createHmac } from 'node:crypto';
import { keyById, mac, macMatches, type SigningKeys } from './signing-keys.ts';

/**
 * A visitor's bearer credential, kept by the widget in the host page's localStorage:
 * `v2.<kid>.<visitorId>.<siteId>.<expires, unix seconds>.<mac>`. The key id lets
 * `HEED_SECRET_PREVIOUS` keep tokens valid through a rotation; the expiry bounds a stolen
 * token's life, and `session.start` (every page load) issues a fresh one, so a visitor who
 * comes back within the TTL never notices.
 */
export interface VisitorClaims {
  visitorId: string;
  siteId: string;
}

const PURPOSE = 'heed-visitor-token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function signVisitorToken(keys: SigningKeys, claims: VisitorClaims, opts: { ttlMs: number; now?: number }): string {
  const expires = Math.floor(((opts.now ?? Date.now()) + opts.ttlMs) / 1000);
  const body = `v2.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.${expires}`;
  return `${body}.${mac(keys.current.secret, PURPOSE, body)}`;
}

/**
 * The claims of a genuine, unexpired token signed with a key this deployment accepts;
 * null for anything forged, truncated, expired or malformed. With `legacy`, also the
 * pre-expiry `v1` tokens of the current secret (only `session.start` accepts them, to
 * resume the visitor and hand out a `v2`).
 */
export function verifyVisitorToken(keys: SigningKeys, token: string, opts: { now?: number; legacy?: boolean } = {}): VisitorClaims | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const parts = token.split('.');
  if (opts.legacy && parts.length === 4 && parts[0] === 'v1')
    return verifyLegacy(keys.current.secret, parts as [string, string, string, string]);
  if (parts.length !== 6 || parts[0] !== 'v2') return null;
  const [, kid, visitorId, siteId, expires, given] = parts as [string, string, string, string, string, string];
  const key = keyById(keys, kid);
  if (!key || !UUID.test(visitorId) || !UUID.test(siteId) || !/^\d{1,12}$/.test(expires)) return null;
  if (!macMatches(given, mac(key.secret, PURPOSE, parts.slice(0, 5).join('.')))) return null;
  if (Number(expires) * 1000 <= (opts.now ?? Date.now())) return null;
  return { visitorId, siteId };
}

/** `v1.<visitorId>.<siteId>.<hmac>`: the format before key ids and expiry. */
function verifyLegacy(secret: string, [, visitorId, siteId, given]: [string, string, string, string]): VisitorClaims | null {
  if (!UUID.test(visitorId) || !UUID.test(siteId)) return null;
  const expected = createHmac('sha256', secret).update(`v1.${visitorId}.${siteId}`).digest('base64url');
  return macMatches(given, expected) ? { visitorId, siteId } : null;
}
