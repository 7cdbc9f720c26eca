import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';
import { mayTakeSiteSql } from './assign.ts';

/**
 * A session used within this long counts as someone at the console: an open console's live list
 * checks its session every 30 s, which marks it seen at most once a minute. A session that is
 * merely unexpired (they last lasted a week) is someone who went home.
 */
const PRESENT_WITHIN = '5 minutes';

/**
 * On a hand-off, for a site with `autoAssign`: gives the conversation to the site's next agent
 * who is at the console (a live session used within PRESENT_WITHIN), round-robin by the time each was last given one, and
 * returns their id; null when the site does not assign automatically, it is assigned already,
 * or no agent is signed in (then it waits unassigned, and the site's owners are told).
 * Runs inside the hand-off's transaction, which holds the conversation's row lock; the chosen
 * operator's row is locked too, so two hand-offs at once go to two agents.
 */
export async function autoAssign(tx: DbLike, conversationId: string): Promise<string | null> {
  const [picked] = await tx.$queryRaw<{ id: string }[]>`
    SELECT o.id FROM "Conversation" c JOIN "Site" s ON s.id = c."siteId"
    JOIN "Operator" o ON o.role = 'agent' AND ${mayTakeSiteSql(Prisma.sql`c."siteId"`)}
    WHERE c.id = ${conversationId}::uuid AND s."autoAssign" AND c."assigneeId" IS NULL
      AND EXISTS (SELECT 1 FROM "OperatorSession" os WHERE os."operatorId" = o.id
        AND os."revokedAt" IS NULL AND os."expiresAt" > now() AND os."lastSeenAt" > now() - ${PRESENT_WITHIN}::interval)
    ORDER BY o."lastAutoAssignedAt" ASC NULLS FIRST, o.id
    LIMIT 1
    FOR UPDATE OF o`;
  if (!picked) return null;
  await tx.$executeRaw`UPDATE "Operator" SET "lastAutoAssignedAt" = clock_timestamp() WHERE id = ${picked.id}::uuid`;
  await tx.$executeRaw`
    UPDATE "Conversation" SET "assigneeId" = ${picked.id}::uuid, "assignedAt" = now() WHERE id = ${conversationId}::uuid`;
  return picked.id;
}
