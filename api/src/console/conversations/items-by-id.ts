import { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { itemsOfPage, type ItemRow } from './item-row.ts';

/** Which conversations to read, for which operator, within which sites. */
export interface ItemsQuery {
  operatorId: string;
  ids: readonly string[];
  /** one site the caller asked for */
  siteId?: string;
  /** the sites the operator may act on (null: every site); others are left out as if gone */
  sites: SiteScope;
}

/**
 * The console items of these conversations as THIS operator sees them (their read markers),
 * in one statement; ids outside `siteId` (when given), outside the operator's sites, or gone are left out.
 */
export async function conversationItemsById(db: DbLike, q: ItemsQuery): Promise<ConversationItem[]> {
  if (q.ids.length === 0) return [];
  const rows = await itemRowsById(db, q);
  return rows.map(toConversationItem);
}

/** The raw rows (the transcript also wants the visitor's time zone). */
export function itemRowsById(db: DbLike, q: ItemsQuery): Promise<ItemRow[]> {
  return db.$queryRaw<ItemRow[]>`
    WITH page (id) AS (SELECT DISTINCT unnest(${[...q.ids]}::uuid[]))
    ${itemsOfPage(q.operatorId)}
    WHERE ${q.siteId ? Prisma.sql`c."siteId" = ${q.siteId}::uuid` : Prisma.sql`TRUE`}
      AND ${siteScopeSql(q.sites ?? null, Prisma.sql`c."siteId"`)}
    ORDER BY c."updatedAt" DESC, c.id DESC`;
}
