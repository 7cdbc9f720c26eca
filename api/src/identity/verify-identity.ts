import { createHmac } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { z } from 'zod';
import { macMatches } from '../auth/signing-keys.ts';
import { refuse } from '../errors/refusal.ts';
import { noNul } from '../inputs/fields.ts';
import { readAttributes, type IdentityAttributes } from './identity-attributes.ts';

/** Longest a host-signed identity token may live: a stolen one is useless within a day. */
export const IDENTITY_MAX_TTL_S = 24 * 60 * 60;
/** Clock difference tolerated between the host's server and ours. */
const CLOCK_TOLERANCE_S = 60;

/** A host's user id (`Visitor.externalId`): what identity verification signs and server messages name. */
export const hostUserId = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters');

/**
 * What the host page passes to `Heed('identify', …)`: the user id and either a JWT its
 * backend signed (HS256 with the site's identity secret; `sub` = the user id, `exp`
 * required, at most 24 h away; optional `name`, `email`, and `attributes` for the console's
 * visitor profile: identity-attributes.ts) or, for sites migrating from an
 * Intercom-style setup, the static `userHash` = hex HMAC-SHA256(secret, userId) (weaker:
 * it never expires, so a leaked hash works until the secret is rotated).
 */
export const identityInput = z
  .strictObject({
    userId: hostUserId,
    token: z.string().min(1).max(4096).optional(),
    userHash: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'a hex HMAC-SHA256')
      .optional(),
  })
  .refine((v) => (v.token === undefined) !== (v.userHash === undefined), 'give either token or userHash');

export type IdentityInput = z.infer<typeof identityInput>;

export interface VerifiedIdentity {
  userId: string;
  name: string | null;
  email: string | null;
  /** the signed `attributes` claim, bounded (invalid ones dropped); null: none signed */
  attributes: IdentityAttributes | null;
  method: 'jwt' | 'user_hash';
}

const signedProfile = z.object({
  // signed by the host, yet a name PostgreSQL cannot store (a NUL) must not fail the session: it is dropped
  name: z.string().max(200).refine(noNul).optional().catch(undefined),
  email: z.string().email().max(320).optional().catch(undefined),
});

/**
 * Checks an identity against a site's secrets (newest first; two during a rotation).
 * Throws 401 with a reason: `identity_not_configured` (the site has no secret),
 * `identity_expired`, or `identity_invalid` (forged, wrong user, wrong algorithm, `exp`
 * missing or too far away).
 */
export async function verifyIdentity(secrets: readonly string[], identity: IdentityInput, now = Date.now()): Promise<VerifiedIdentity> {
  if (secrets.length === 0)
    throw refuse('unauthorized', 'identity_not_configured', 'This site has no identity secret: identities cannot be verified.');
  if (identity.userHash !== undefined) {
    const given = identity.userHash.toLowerCase();
    const ok = secrets.some((secret) => macMatches(given, createHmac('sha256', secret).update(identity.userId).digest('hex')));
    if (!ok) throw refuse('unauthorized', 'identity_invalid', 'The userHash does not match this user id.');
    return { userId: identity.userId, name: null, email: null, attributes: null, method: 'user_hash' };
  }
  let expired = false;
  for (const secret of secrets) {
    try {
      const { payload } = await jwtVerify(identity.token!, new TextEncoder().encode(secret), {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: new Date(now),
      });
      if (payload.sub !== identity.userId) throw refuse('unauthorized', 'identity_invalid', 'The token was signed for another user id.');
      if (payload.exp! - now / 1000 > IDENTITY_MAX_TTL_S + CLOCK_TOLERANCE_S) {
        throw refuse('unauthorized', 'identity_invalid', 'The token expires more than 24 hours from now: sign short-lived tokens.');
      }
      const profile = signedProfile.parse(payload);
      const attributes = readAttributes(payload.attributes);
      return { userId: identity.userId, name: profile.name ?? null, email: profile.email ?? null, attributes, method: 'jwt' };
    } catch (err) {
      if (err instanceof errors.JWTExpired) expired = true;
      else if (!(err instanceof errors.JOSEError)) throw err;
    }
  }
  throw expired
    ? refuse('unauthorized', 'identity_expired', 'The identity token has expired: sign a new one.')
    : refuse('unauthorized', 'identity_invalid', 'The identity token is not valid for this site.');
}
