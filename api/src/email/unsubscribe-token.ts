import { keyById, mac, macMatches, type SigningKeys } from '../auth/signing-keys.ts';

/** Who an unsubscribe link stops emails to: a visitor (their reply emails) or an operator (their alerts). */
export type Unsubscriber = { visitorId: string } | { operatorId: string };

const PURPOSE = 'heed-email-unsubscribe';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The token of every email's unsubscribe link: `u1.<kid>.<v|o>.<id>.<mac>`. It does not expire:
 * an old email's link must still work (RFC 8058 one-click unsubscribing expects so), and all it
 * can do is stop emails to the one person it names.
 * @example signUnsubscribeToken(signingKeys(config), { visitorId })
 */
export function signUnsubscribeToken(keys: SigningKeys, who: Unsubscriber): string {
  const body = 'visitorId' in who ? `u1.${keys.current.kid}.v.${who.visitorId}` : `u1.${keys.current.kid}.o.${who.operatorId}`;
  return `${body}.${mac(keys.current.secret, PURPOSE, body)}`;
}

/** Whom a genuine token names; null for anything forged, altered or malformed. */
export function verifyUnsubscribeToken(keys: SigningKeys, token: unknown): Unsubscriber | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== 'u1') return null;
  const [, kid, who, id, given] = parts as [string, string, string, string, string];
  const key = keyById(keys, kid);
  if (!key || (who !== 'v' && who !== 'o') || !UUID.test(id)) return null;
  if (!macMatches(given, mac(key.secret, PURPOSE, parts.slice(0, 4).join('.')))) return null;
  return who === 'v' ? { visitorId: id } : { operatorId: id };
}
