import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Anonymous visitors hold a signed token: `v1.<visitorId>.<siteId>.<hmac>`.
 * It is a bearer credential the widget keeps in localStorage; nothing else identifies a visitor.
 */
export interface VisitorClaims {
  visitorId: string;
  siteId: string;
}

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64url');

export function signVisitorToken(secret: string, claims: VisitorClaims): string {
  const body = `v1.${claims.visitorId}.${claims.siteId}`;
  return `${body}.${sign(secret, body)}`;
}

/** Returns the claims of a genuine token, or null for anything forged, truncated or malformed. */
export function verifyVisitorToken(secret: string, token: string): VisitorClaims | null {
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return null;
  const [, visitorId, siteId, mac] = parts as [string, string, string, string];
  const expected = Buffer.from(sign(secret, `v1.${visitorId}.${siteId}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { visitorId, siteId };
}
