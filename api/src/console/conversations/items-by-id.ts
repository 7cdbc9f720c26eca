import { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { itemFrom, type ItemRow } from './item-row.ts';

/**
 * The console items of these conversations as THIS operator sees them (their read markers),
 * in one statement; ids outside `siteId` (when given) or gone are left out.
 */
export async function conversationItemsById(
  db: DbLike,
  q: { operatorId: string; ids: readonly string[]; siteId?: string },
): Promise<ConversationItem[]> {
  if (q.ids.length === 0) return [];
  const rows = await itemRowsById(db, q);
  return rows.map(toConversationItem);
}

/** The raw rows (the transcript also wants the visitor's time zone). */
export function itemRowsById(db: DbLike, q: { operatorId: string; ids: readonly string[]; siteId?: string }): Promise<ItemRow[]> {
  return db.$queryRaw<ItemRow[]>`
    ${itemFrom(q.operatorId)}
    WHERE c.id = ANY(${[...q.ids]}::uuid[])
      AND ${q.siteId ? Prisma.sql`c."siteId" = ${q.siteId}::uuid` : Prisma.sql`TRUE`}
    ORDER BY c."updatedAt" DESC, c.id DESC`;
}
