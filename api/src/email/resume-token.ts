import { keyById, mac, macMatches, type SigningKeys } from '../auth/signing-keys.ts';

/** How long the link in a visitor's reply email resumes their conversation. */
export const RESUME_TTL_MS = 7 * 24 * 3600_000;

/** What a resume link stands for: this visitor, back in this conversation. */
export interface ResumeClaims {
  visitorId: string;
  conversationId: string;
}

const PURPOSE = 'heed-email-resume';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The token of a visitor's reply email (`<page>#heed-resume=<token>`):
 * `r1.<kid>.<visitorId>.<conversationId>.<expires, unix seconds>.<mac>`, signed like visitor
 * tokens (HEED_SECRET, a purpose of its own, so neither verifies as the other). It rides in the
 * URL's fragment, which browsers never send to the host page's server, and the widget removes it
 * from the address bar before it exchanges it (`session.resume`) for a visitor session.
 * @example signResumeToken(signingKeys(config), { visitorId, conversationId })
 */
export function signResumeToken(keys: SigningKeys, claims: ResumeClaims, opts: { now?: number; ttlMs?: number } = {}): string {
  const expires = Math.floor(((opts.now ?? Date.now()) + (opts.ttlMs ?? RESUME_TTL_MS)) / 1000);
  const body = `r1.${keys.current.kid}.${claims.visitorId}.${claims.conversationId}.${expires}`;
  return `${body}.${mac(keys.current.secret, PURPOSE, body)}`;
}

/** The claims of a genuine, unexpired resume token; null for anything forged, altered, expired or malformed. */
export function verifyResumeToken(keys: SigningKeys, token: string, opts: { now?: number } = {}): ResumeClaims | null {
  if (typeof token !== 'string' || token.length > 300) return null;
  const parts = token.split('.');
  if (parts.length !== 6 || parts[0] !== 'r1') return null;
  const [, kid, visitorId, conversationId, expires, given] = parts as [string, string, string, string, string, string];
  const key = keyById(keys, kid);
  if (!key || !UUID.test(visitorId) || !UUID.test(conversationId) || !/^\d{1,12}$/.test(expires)) return null;
  if (!macMatches(given, mac(key.secret, PURPOSE, parts.slice(0, 5).join('.')))) return null;
  if (Number(expires) * 1000 <= (opts.now ?? Date.now())) return null;
  return { visitorId, conversationId };
}
