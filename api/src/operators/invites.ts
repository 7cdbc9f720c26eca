import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { OperatorRole } from '../db/generated/client.ts';
import { refuse } from '../errors/refusal.ts';
import { ME_SELECT, type Me } from './operator-inputs.ts';
import { hashPassword } from './password.ts';
import { siteChoiceData, type SiteChoice } from './site-access.ts';

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** Only a hash of the invitation token is stored, like session tokens: a database leak holds no usable link. */
export const inviteHashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Invites an operator: a row without a password and a fresh token, returned once (it goes
 * into the link the owner passes on). Inviting an email again while its invitation is
 * pending replaces the token (the old link stops working); an operator who already set a
 * password is `operator_exists` (409). An agent's `sites` are part of the invitation (`[]`:
 * no site until an owner sets them; owners act on every site whatever is stored).
 */
export async function inviteOperator(
  db: Db,
  input: { email: string; name: string; role: OperatorRole; sites: SiteChoice },
  now = new Date(),
): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const invite = {
    inviteTokenHash: inviteHashOf(token),
    inviteExpiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    ...siteChoiceData(input.sites),
  };
  const existing = await db.operator.findUnique({ where: { email: input.email }, select: { id: true, passwordHash: true } });
  if (existing?.passwordHash) throw refuse('conflict', 'operator_exists', 'An operator with this email already exists.');
  if (existing) {
    // only while still pending: an invitee who accepts in between keeps their password
    const { count } = await db.operator.updateMany({
      where: { id: existing.id, passwordHash: null },
      data: { name: input.name, role: input.role, ...invite },
    });
    if (count === 0) throw refuse('conflict', 'operator_exists', 'An operator with this email already exists.');
    return { id: existing.id, token };
  }
  try {
    const row = await db.operator.create({
      data: { email: input.email, name: input.name, role: input.role, ...invite },
      select: { id: true },
    });
    return { id: row.id, token };
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002')
      throw refuse('conflict', 'operator_exists', 'An operator with this email already exists.');
    throw err;
  }
}

/**
 * Accepts an invitation: sets the invitee's name and password and spends the token, in one
 * statement whose `WHERE` is the rule (the token is known, unexpired and not yet spent), so
 * a link works once. Unknown, spent and expired links all answer `invite_invalid`.
 */
export async function acceptInvite(db: Db, input: { token: string; name: string; password: string }, now = new Date()): Promise<Me> {
  const invalid = () => refuse('unauthorized', 'invite_invalid', 'This invitation link is not valid any more: ask an owner for a new one.');
  const where = { inviteTokenHash: inviteHashOf(input.token), passwordHash: null, inviteExpiresAt: { gt: now } };
  // looked up before hashing: a made-up token costs a lookup, never 300 ms of scrypt
  const row = await db.operator.findFirst({ where, select: { id: true } });
  if (!row) throw invalid();
  const passwordHash = await hashPassword(input.password);
  const { count } = await db.operator.updateMany({
    where: { ...where, id: row.id },
    data: { name: input.name, passwordHash, inviteTokenHash: null, inviteExpiresAt: null },
  });
  if (count === 0) throw invalid();
  return db.operator.findUniqueOrThrow({ where: { id: row.id }, select: ME_SELECT });
}
