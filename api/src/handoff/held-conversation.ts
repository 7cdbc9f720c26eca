import { Prisma } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import { siteScopeSql, type SiteScope } from '../operators/site-access.ts';
import { notFound } from '../errors/refusal.ts';

/** What takeover, reply and hand back read of the conversation they act on. */
export interface LockedConversation {
  id: string;
  visitorId: string;
  siteId: string;
  heldById: string | null;
  private: boolean;
}

/**
 * Locks the conversation row for the rest of the transaction, as claims do (`claimBatch`
 * bumps the fence under the same lock), so a takeover and a claim, or two operators, never
 * interleave. NOT_FOUND when it does not exist or lies outside the operator's sites.
 */
export async function lockConversation(tx: Tx, q: { conversationId: string; sites: SiteScope }): Promise<LockedConversation> {
  const [row] = await tx.$queryRaw<LockedConversation[]>`
    SELECT id, "visitorId", "siteId", "heldById", private FROM "Conversation"
    WHERE id = ${q.conversationId}::uuid AND ${siteScopeSql(q.sites, Prisma.sql`"siteId"`)}
    FOR UPDATE`;
  if (!row) throw notFound('conversation');
  return row;
}

/** The name of an operator (a hold's holder), or a neutral word when they were removed meanwhile. */
export async function operatorName(tx: Tx, operatorId: string): Promise<string> {
  const row = await tx.operator.findUnique({ where: { id: operatorId }, select: { name: true } });
  return row?.name ?? 'Another operator';
}
