import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt cost for new hashes: N = 2^16, r = 8, p = 2 — one of OWASP's equivalent scrypt
 * settings (beside 2^17/8/1), chosen for its memory per in-flight hash: 128·N·r = 64 MiB,
 * so the 4 libuv threads that run hashes hold at most 256 MiB under a sign-in flood
 * (2^17 would hold 512 MiB). Measured on the 2-core dev machine (2026-12-01, node 20):
 * 2^16/8/2 ≈ 310 ms a hash (2^15/8/1 ≈ 90 ms, 2^17/8/1 ≈ 390 ms). Every stored hash names
 * its own parameters, so raising these later upgrades each operator at their next sign-in.
 */
export const SCRYPT_PARAMS = { N: 2 ** 16, r: 8, p: 2 } as const;

type Params = { N: number; r: number; p: number };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** A stored hash asking for more than this is refused (a corrupted row must not cost a gigabyte). */
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, params: Params, keyLength = KEY_BYTES): Promise<Buffer> {
  // maxmem above scrypt's 128·N·r working set (Node's default, 32 MiB, is below it)
  const maxmem = 256 * params.N * params.r;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, { ...params, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * Hashes a password for storage as `scrypt$N$r$p$salt$hash` (salt and hash base64url).
 * @example await hashPassword('correct horse battery staple') // 'scrypt$65536$8$2$…$…'
 */
export async function hashPassword(password: string, params: Params = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface Parsed extends Params {
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const m = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { N, r, p, salt: Buffer.from(m[4]!, 'base64url'), key: Buffer.from(m[5]!, 'base64url') };
}

/**
 * Whether `password` matches a stored hash, compared in constant time. With no usable hash
 * (unknown email, an invitation not yet accepted) it still derives a key at today's cost
 * and answers false, so the answer takes as long as for a known operator: the time of a
 * failed sign-in does not tell whether the email exists.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    const key = await derive(password, randomBytes(SALT_BYTES), SCRYPT_PARAMS);
    timingSafeEqual(key, Buffer.alloc(key.length)); // the same work as a real comparison
    return false;
  }
  const key = await derive(password, parsed.salt, parsed, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash is weaker than today's parameters (rehash it at the next successful sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return parsed.N < SCRYPT_PARAMS.N || parsed.r < SCRYPT_PARAMS.r || parsed.p < SCRYPT_PARAMS.p || parsed.key.length < KEY_BYTES;
}
