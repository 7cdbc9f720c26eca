import type { Db } from '../db/client.ts';
import { refuse } from '../errors/refusal.ts';
import { hashPassword, verifyPassword } from './password.ts';

/**
 * Sets the operator's own name (what visitors see beside their replies, "Ana joined").
 * @example await renameSelf(db, operatorId, 'Ana Berg')
 */
export async function renameSelf(db: Db, operatorId: string, name: string): Promise<void> {
  await db.operator.update({ where: { id: operatorId }, data: { name }, select: { id: true } });
}

/**
 * Changes the operator's own password, given the current one (a session left open on a shared
 * computer must not be enough). Every other session of theirs ends; this one stays signed in.
 * A wrong current password is refused BAD_REQUEST `wrong_password`, changing nothing.
 * @example await changeOwnPassword(db, { operatorId, sessionId, current: 'old…', next: 'new…' })
 */
export async function changeOwnPassword(
  db: Db,
  q: { operatorId: string; sessionId: string; current: string; next: string },
): Promise<void> {
  const { passwordHash } = await db.operator.findUniqueOrThrow({ where: { id: q.operatorId }, select: { passwordHash: true } });
  if (!passwordHash || !(await verifyPassword(q.current, passwordHash)))
    throw refuse('bad_request', 'wrong_password', 'The current password is not right.');
  const next = await hashPassword(q.next);
  await db.$transaction([
    db.operator.update({ where: { id: q.operatorId }, data: { passwordHash: next }, select: { id: true } }),
    db.operatorSession.updateMany({
      where: { operatorId: q.operatorId, revokedAt: null, id: { not: q.sessionId } },
      data: { revokedAt: new Date() },
    }),
  ]);
}

/**
 * Ends every session of the operator, this one included: "sign out everywhere", for a lost
 * phone or a shared computer.
 * @example await signOutEverywhere(db, operatorId) // 3
 */
export async function signOutEverywhere(db: Db, operatorId: string): Promise<number> {
  const { count } = await db.operatorSession.updateMany({ where: { operatorId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}
