import type { Db } from '../db/client.ts';
import { hashPassword, verifyPassword } from './password.ts';

/**
 * Makes `email` an owner whose password is `password` (admin:create, HEED_ADMIN_EMAIL):
 * creates the operator, or raises an existing one to owner and sets the password (a
 * pending invitation is spent). A changed password signs every session of theirs out
 * (`signedOut`: tell the console's open streams, see access-changed.ts); an unchanged one (the
 * same env on every start) changes nothing.
 */
export async function upsertOwner(
  db: Db,
  input: {
    email: string;
    name?: string;
    password: string /** the name of an owner it creates, never changed afterwards */;
    initialName?: string;
  },
): Promise<{ outcome: 'created' | 'updated' | 'unchanged'; signedOut: string | null }> {
  const existing = await db.operator.findUnique({
    where: { email: input.email },
    select: { id: true, role: true, passwordHash: true, name: true },
  });
  if (!existing) {
    const passwordHash = await hashPassword(input.password);
    try {
      await db.operator.create({
        data: { email: input.email, name: input.name ?? input.initialName ?? defaultName(input.email), role: 'owner', passwordHash },
        select: { id: true },
      });
      return { outcome: 'created', signedOut: null };
    } catch (err) {
      // another process created it in between (two API processes starting with the same env)
      if ((err as { code?: string }).code === 'P2002') return upsertOwner(db, input);
      throw err;
    }
  }
  const samePassword = existing.passwordHash !== null && (await verifyPassword(input.password, existing.passwordHash));
  if (samePassword && existing.role === 'owner' && (input.name === undefined || input.name === existing.name))
    return { outcome: 'unchanged', signedOut: null };
  const passwordHash = samePassword ? existing.passwordHash! : await hashPassword(input.password);
  await db.$transaction([
    db.operator.update({
      where: { id: existing.id },
      data: { role: 'owner', passwordHash, inviteTokenHash: null, inviteExpiresAt: null, ...(input.name ? { name: input.name } : {}) },
      select: { id: true },
    }),
    ...(samePassword
      ? []
      : [db.operatorSession.updateMany({ where: { operatorId: existing.id, revokedAt: null }, data: { revokedAt: new Date() } })]),
  ]);
  return { outcome: 'updated', signedOut: samePassword ? null : existing.id };
}

/** `ana@shop.example` → `ana`: a name to show until the owner sets one. */
const defaultName = (email: string) => email.split('@')[0]!.slice(0, 120) || 'Owner';
