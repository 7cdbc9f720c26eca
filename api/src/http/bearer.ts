import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time check of `Bearer <secret>`. Both sides are hashed first, so neither the
 * comparison time nor a length mismatch tells anything about the secret.
 */
export function bearerMatches(header: string | undefined, secret: string | undefined): boolean {
  if (!secret || !header?.startsWith('Bearer ')) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(secret));
}
