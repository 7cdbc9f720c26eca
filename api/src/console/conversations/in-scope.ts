import { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';

/**
 * A conversation the operator may act on (its site is in their scope), or null: gone and
 * out of scope look the same (the console answers NOT_FOUND for both).
 */
export async function conversationInScope(
  db: DbLike,
  q: { conversationId: string; sites: SiteScope },
): Promise<{ siteId: string; visitorId: string; private: boolean } | null> {
  const [row] = await db.$queryRaw<{ siteId: string; visitorId: string; private: boolean }[]>`
    SELECT "siteId", "visitorId", private FROM "Conversation"
    WHERE id = ${q.conversationId}::uuid AND ${siteScopeSql(q.sites, Prisma.sql`"siteId"`)}`;
  return row ?? null;
}
