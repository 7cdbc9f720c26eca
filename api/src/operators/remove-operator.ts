import type { Db } from '../db/client.ts';
import { refuse } from '../errors/refusal.ts';

/**
 * Removes an operator; their sessions and read markers go with the row (cascade), so every
 * console request they make from then on is signed out, on every process. Nobody removes
 * themselves (`remove_self`), and the last owner stays (`last_owner`): the owners' rows are
 * locked first, so two owners removing each other at once cannot both succeed.
 */
export async function removeOperator(db: Db, input: { operatorId: string; by: string }): Promise<boolean> {
  if (input.operatorId === input.by) throw refuse('forbidden', 'remove_self', 'You cannot remove yourself.');
  return db.$transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM "Operator" WHERE role = 'owner' FOR UPDATE`;
    const target = await tx.operator.findUnique({ where: { id: input.operatorId }, select: { role: true } });
    if (!target) return false;
    if (target.role === 'owner' && owners.length <= 1) throw refuse('forbidden', 'last_owner', 'The last owner cannot be removed.');
    const { count } = await tx.operator.deleteMany({ where: { id: input.operatorId } });
    return count > 0;
  });
}
