import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** One secret with its public key id (a hash prefix: it names the secret, never reveals it). */
export interface SigningKey {
  kid: string;
  secret: string;
}

/**
 * The keys visitor credentials are signed with: `current` signs, `current` and `previous`
 * verify, so rotating `HEED_SECRET` (old value into `HEED_SECRET_PREVIOUS`) logs nobody out.
 */
export interface SigningKeys {
  current: SigningKey;
  previous?: SigningKey;
}

export const keyOf = (secret: string): SigningKey => ({
  kid: createHash('sha256').update(`heed-kid:${secret}`).digest('base64url').slice(0, 8),
  secret,
});

export function signingKeys(config: { HEED_SECRET: string; HEED_SECRET_PREVIOUS?: string }): SigningKeys {
  return { current: keyOf(config.HEED_SECRET), previous: config.HEED_SECRET_PREVIOUS ? keyOf(config.HEED_SECRET_PREVIOUS) : undefined };
}

/** The key a credential names by its key id, if this deployment still accepts it. */
export const keyById = (keys: SigningKeys, kid: string): SigningKey | undefined =>
  [keys.current, keys.previous].find((k) => k?.kid === kid);

/** HMAC-SHA256 of `body` under a purpose label, so a MAC made for one kind of credential never verifies as another. */
export const mac = (secret: string, purpose: string, body: string) =>
  createHmac('sha256', secret).update(`${purpose}\n${body}`).digest('base64url');

/** Constant-time comparison of two MACs (false on any length mismatch). */
export function macMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
