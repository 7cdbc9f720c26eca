import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';

/**
 * Adds a new identity secret (32 random bytes, base64url) in front of the site's secrets
 * and keeps the one before it, so identities signed with the previous secret stay valid
 * while the host deploys the new one (`verifyIdentity` tries newest first); an older one
 * is dropped. One statement, so two rotations at once still leave at most two.
 * Answers the new secret (to be shown once), or null when there is no such site.
 */
export async function rotateIdentitySecret(db: Db, siteId: string): Promise<string | null> {
  const secret = randomBytes(32).toString('base64url');
  const count = await db.$executeRaw`
    UPDATE "Site" SET "identitySecrets" = ARRAY[${secret}]::text[] || "identitySecrets"[1:1]
    WHERE id = ${siteId}::uuid`;
  return count === 0 ? null : secret;
}
