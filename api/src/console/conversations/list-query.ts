import { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import { type ListCursor, encodeCursor } from './cursor.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { itemFrom, type ItemRow } from './item-row.ts';
import { filterSql, type ListFilter } from './list-filter.ts';
import { matches, searchPage } from './search-page.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';

export interface ListQuery {
  operatorId: string;
  /** one site, or every site the operator may act on */
  siteId?: string;
  /** the sites the operator may act on (null: every site) */
  sites?: SiteScope;
  filter: ListFilter;
  /** words of message text; also an exact visitor id, conversation id or host user id */
  search?: string;
  /** the last row shown: its sort time (`updatedAt`, or `waitingSince` for the `waiting` filter) and id */
  cursor?: ListCursor;
  limit: number;
}

/**
 * One page of the console's list, newest activity first (updatedAt desc, id desc), in ONE
 * statement, and the cursor of the next page (null on the last one); the `waiting` filter is
 * ordered oldest wait first instead (`listWaiting`). Only the operator's sites are read.
 *
 * Keyset pagination: `(updatedAt, id) < cursor` continues exactly after the last row shown,
 * whatever was inserted or moved to the top meanwhile (those come live through `changes`).
 * The page's ids are chosen first (CTE `page`), from the index Conversation(updatedAt desc,
 * id desc), or (siteId, updatedAt desc, id desc) for one site; only those rows are then read
 * whole (`itemFrom`), so a page costs its 51 rows' lookups however many conversations exist.
 *
 * EXPLAIN ANALYZE at 100,000 conversations (3 sites, 40,000 visitors, 400,000 messages,
 * 200,000 runs, 500 live, 2,000 failed, 1,000 open questions, half read by the operator; the
 * bench's seed with each conversation's fence set to its latest run's), buffers per page and
 * median of 9 on this 2-core machine while other jobs kept its load average between 5 and 10:
 * all sites first page 1,409 buffers 1.7 ms (the page itself is an index-only scan of 4
 * buffers, no heap fetch; the rest is the 51 rows' lookups), 5,000 rows deep 1,511 / 2.9 ms,
 * one site 1,410 / 1.6 ms, `unread` 1,704 / 1.9 ms, `live` 3,900 / 5.8 ms, `input_needed`
 * 8,700 / 18 ms, `failed` 14,000 / 30 ms (each candidate is checked before the sort); search:
 * a word on 12% of conversations 11,400 / 42 ms, a rare word 4,200 / 26 ms, an absent word
 * 1,000 / 1.5 ms, a host user id 1,160 / 1.7 ms.
 */
export async function listConversationItems(db: DbLike, q: ListQuery): Promise<{ items: ConversationItem[]; nextCursor: string | null }> {
  if (q.filter === 'waiting') return listWaiting(db, q);
  const filter = filterSql(q.filter);
  const from = fromRows(q, filter.candidates !== null);
  const scope = Prisma.sql`${sitesOf(q)}
    AND ${q.cursor ? Prisma.sql`(c."updatedAt", c.id) < (${q.cursor.updatedAt}::timestamptz, ${q.cursor.id}::uuid)` : Prisma.sql`TRUE`}
    AND ${filter.where}`;
  const search = q.search?.trim();
  const page = search
    ? searchPage(search, from, scope, q.limit + 1)
    : Prisma.sql`page AS MATERIALIZED (
        SELECT c.id FROM ${from} WHERE ${scope}
        ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${q.limit + 1})`;
  const candidates = filter.candidates ? Prisma.sql`candidates (id) AS MATERIALIZED (${filter.candidates}),` : Prisma.empty;
  const rows = await db.$queryRaw<ItemRow[]>`
    WITH ${candidates} ${page}
    ${itemFrom(q.operatorId)}
    WHERE c.id IN (SELECT id FROM page)
    ORDER BY c."updatedAt" DESC, c.id DESC`;
  return pageOf(rows, q.limit, (r) => r.updatedAt);
}

/**
 * The `waiting` filter, the operators' queue: oldest wait first (the one waiting longest is
 * answered first), keyset on (waitingSince, id). Waiting conversations are few (index
 * Conversation(waitingSince)), so a search here simply tests each of them.
 */
async function listWaiting(db: DbLike, q: ListQuery): Promise<{ items: ConversationItem[]; nextCursor: string | null }> {
  const filter = filterSql('waiting');
  const search = q.search?.trim();
  const rows = await db.$queryRaw<ItemRow[]>`
    WITH candidates (id) AS MATERIALIZED (${filter.candidates!}),
    page AS MATERIALIZED (
      SELECT c.id FROM ${fromRows(q, true)}
      WHERE ${sitesOf(q)} AND ${filter.where}
        AND ${q.cursor ? Prisma.sql`(c."waitingSince", c.id) > (${q.cursor.updatedAt}::timestamptz, ${q.cursor.id}::uuid)` : Prisma.sql`TRUE`}
        AND ${search ? matches(search, Prisma.raw('c')) : Prisma.sql`TRUE`}
      ORDER BY c."waitingSince" ASC, c.id ASC LIMIT ${q.limit + 1})
    ${itemFrom(q.operatorId)}
    WHERE c.id IN (SELECT id FROM page)
    ORDER BY c."waitingSince" ASC, c.id ASC`;
  return pageOf(rows, q.limit, (r) => r.waitingSince!);
}

/** The conversations a page is chosen from (`c`), with this operator's read marker `orr`. */
const fromRows = (q: ListQuery, candidates: boolean) =>
  Prisma.sql`${candidates ? Prisma.sql`candidates k JOIN "Conversation" c ON c.id = k.id` : Prisma.sql`"Conversation" c`}
    LEFT JOIN "OperatorRead" orr ON orr."operatorId" = ${q.operatorId}::uuid AND orr."conversationId" = c.id`;

/** The asked site, within the sites the operator may act on. */
const sitesOf = (q: ListQuery) =>
  Prisma.sql`${q.siteId ? Prisma.sql`c."siteId" = ${q.siteId}::uuid` : Prisma.sql`TRUE`} AND ${siteScopeSql(q.sites ?? null, Prisma.sql`c."siteId"`)}`;

/** The page shown (one row more was read to know whether another page follows) and its cursor. */
function pageOf(rows: ItemRow[], limit: number, sortTime: (r: ItemRow) => Date): { items: ConversationItem[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    items: shown.map(toConversationItem),
    nextCursor: rows.length > limit && last ? encodeCursor({ updatedAt: sortTime(last), id: last.id }) : null,
  };
}
