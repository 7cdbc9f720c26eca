import { Prisma } from '../db/client.ts';
import type { Services } from '../services.ts';
import type { DbLike } from '../db/types.ts';
import { refuse } from '../errors/refusal.ts';
import { siteScopeSql, type SiteScope } from '../operators/site-access.ts';
import { teamChange } from './team-change.ts';

/**
 * Whether an operator may be given a site's conversation: signed up (an invitation not yet
 * accepted cannot answer) and acting on that site (an owner, an agent of every site, or an agent of it).
 */
export const mayTakeSiteSql = (siteId: Prisma.Sql) => Prisma.sql`NOT (o."passwordHash" IS NULL AND o."inviteTokenHash" IS NOT NULL)
  AND (o.role = 'owner' OR o."allSites" OR ${siteId} = ANY(o."siteIds"))`;

/**
 * Assigns a conversation of the caller's sites to an operator, or unassigns it (`assigneeId`
 * null). BAD_REQUEST `not_assignable` when that operator cannot act on its site; false when the
 * conversation is not in the caller's scope. Assigning to whoever has it already changes nothing.
 */
export async function assignConversation(
  s: Pick<Services, 'db' | 'bus'>,
  input: { conversationId: string; assigneeId: string | null; sites: SiteScope },
): Promise<boolean> {
  return teamChange(s, input.conversationId, async (tx) => {
    const [conv] = await tx.$queryRaw<{ siteId: string; visitorId: string; assigneeId: string | null }[]>`
      SELECT "siteId", "visitorId", "assigneeId" FROM "Conversation"
      WHERE id = ${input.conversationId}::uuid AND ${siteScopeSql(input.sites, Prisma.sql`"siteId"`)}
      FOR UPDATE`;
    if (!conv) return null;
    if (conv.assigneeId === input.assigneeId) return conv.visitorId;
    if (input.assigneeId !== null && !(await mayTake(tx, input.assigneeId, conv.siteId))) {
      throw refuse('bad_request', 'not_assignable', 'That operator does not answer conversations of this site.');
    }
    await tx.$executeRaw`
      UPDATE "Conversation" SET "assigneeId" = ${input.assigneeId}::uuid,
        "assignedAt" = CASE WHEN ${input.assigneeId}::uuid IS NULL THEN NULL ELSE now() END
      WHERE id = ${input.conversationId}::uuid`;
    return conv.visitorId;
  });
}

async function mayTake(db: DbLike, operatorId: string, siteId: string): Promise<boolean> {
  const rows = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM "Operator" o WHERE o.id = ${operatorId}::uuid AND ${mayTakeSiteSql(Prisma.sql`${siteId}::uuid`)}`;
  return rows.length > 0;
}
