import { randomBytes } from 'node:crypto';
import { keyById, mac, macMatches, type SigningKeys } from './signing-keys.ts';
import type { VisitorClaims } from './visitor-token.ts';

/**
 * EventSource cannot send headers, so whatever authenticates the event stream travels in
 * its URL, where access logs and proxies keep it. Not the visitor token (a 30-day bearer
 * credential): a stream ticket, `s1.<kid>.<visitorId>.<siteId>.<expires>.<nonce>.<mac>`,
 * that only `events.subscribe` accepts and that expires in minutes. The widget asks for a
 * new one (`events.ticket`, with the bearer token in a header) for every connection.
 */
const PURPOSE = 'heed-stream-ticket';

export function issueStreamTicket(keys: SigningKeys, claims: VisitorClaims, opts: { ttlMs: number; now?: number }): string {
  const expires = Math.floor(((opts.now ?? Date.now()) + opts.ttlMs) / 1000);
  const body = `s1.${keys.current.kid}.${claims.visitorId}.${claims.siteId}.${expires}.${randomBytes(9).toString('base64url')}`;
  return `${body}.${mac(keys.current.secret, PURPOSE, body)}`;
}

/** The claims of a genuine, unexpired ticket; null for anything else (visitor tokens included). */
export function verifyStreamTicket(keys: SigningKeys, ticket: unknown, opts: { now?: number } = {}): VisitorClaims | null {
  if (typeof ticket !== 'string' || ticket.length > 300) return null;
  const parts = ticket.split('.');
  if (parts.length !== 7 || parts[0] !== 's1') return null;
  const [, kid, visitorId, siteId, expires, , given] = parts as [string, string, string, string, string, string, string];
  const key = keyById(keys, kid);
  if (!key || !/^\d{1,12}$/.test(expires)) return null;
  if (!macMatches(given, mac(key.secret, PURPOSE, parts.slice(0, 6).join('.')))) return null;
  if (Number(expires) * 1000 <= (opts.now ?? Date.now())) return null;
  return { visitorId, siteId };
}
