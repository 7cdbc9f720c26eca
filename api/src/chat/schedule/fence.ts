import type { Tx } from '../../db/types.ts';

/** Thrown when a run's fencing number is no longer the conversation's: the run must write nothing. */
export class FenceLostError extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} lost its fence; a newer run owns the conversation`);
  }
}

/**
 * Locks the conversation row and checks the run still owns it. Every write a run makes
 * happens in a transaction that starts with this, so a worker whose lease expired (and
 * whose batch a newer run took over) changes nothing, however late it wakes up.
 */
export async function assertFence(tx: Tx, run: { conversationId: string; runId: string; fence: number }): Promise<void> {
  const [row] = await tx.$queryRaw<{ fence: number }[]>`
    SELECT fence FROM "Conversation" WHERE id = ${run.conversationId}::uuid FOR UPDATE`;
  if (!row || row.fence !== run.fence) throw new FenceLostError(run.runId);
}
