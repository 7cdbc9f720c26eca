import { Prisma } from '../../db/client.ts';
import type { DbLike } from '../../db/types.ts';
import { type ListCursor, encodeCursor } from './cursor.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { itemsOfPage, type ItemRow } from './item-row.ts';
import { filterSql, type ListFilter } from './list-filter.ts';
import { matches, searchPage } from './search-page.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';

export interface ListQuery {
  operatorId: string;
  /** one site, or every site the operator may act on */
  siteId?: string;
  /** the sites the operator may act on (null: every site) */
  sites: SiteScope;
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
 * id desc), or (siteId, updatedAt desc, id desc) for one site, or from a narrow filter's
 * candidates (`rowsOf`); the row statement then starts from those ids (`itemsOfPage`), so a
 * page costs its 51 rows' lookups however many conversations exist.
 *
 * EXPLAIN ANALYZE at the bench's seed (100,000 conversations on 3 sites, 40,000 visitors,
 * 400,000 messages, 200,000 runs, 500 live, 2,000 failed, 1,000 open questions, half read by
 * the operator), buffers and median of 9 on this 2-core machine at a load average of 2.6, each
 * beside the statement this one replaced, run in turn: first page 1,508 buffers 3.3 ms
 * (unchanged), 5,000 rows deep 1,614 / 4.8 ms, `unread` 1,773 / 3.8 ms, `live` 5,966 / 7.4 ms
 * (was 6,251 / 18.8), `input_needed` 9,673 / 10.7 ms (was 9,320 / 54: all 100,000
 * conversations were hashed to meet 1,000 candidates), `failed` 14,331 / 19.9 ms (was 16,373 /
 * 30.6; its rule is now tested after the sort, only until the page is full: `candidatesPage`); search: "parcel" (12% of
 * conversations) 7,981 / 17 ms (was 11,447 / 24), "zanzibar" (0.1%) 2,734 / 5.9 ms (was 58,066 /
 * 44), an absent word 11 / 2.7 ms and a host user id 130 / 3.1 ms (were 101,550 / 59–77:
 * every conversation walked).
 */
export async function listConversationItems(db: DbLike, q: ListQuery): Promise<{ items: ConversationItem[]; nextCursor: string | null }> {
  if (q.filter === 'waiting') return listWaiting(db, q);
  const filter = filterSql(q.filter, q.operatorId);
  const within = filter.candidates ? Prisma.sql`candidates` : null;
  const bounds = Prisma.sql`${sitesOf(q)}
    AND ${q.cursor ? Prisma.sql`(c."updatedAt", c.id) < (${q.cursor.updatedAt}::timestamptz, ${q.cursor.id}::uuid)` : Prisma.sql`TRUE`}`;
  const scope = Prisma.sql`${bounds} AND ${filter.where}`;
  const search = q.search?.trim();
  const page = search
    ? searchPage(search, { rows: (ids) => rowsOf(q, ids), within, scope, limit: q.limit + 1 })
    : within
      ? candidatesPage(q, within, bounds, filter.where)
      : Prisma.sql`page AS MATERIALIZED (
        SELECT c.id FROM ${rowsOf(q, null)} WHERE ${scope}
        ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${q.limit + 1})`;
  const candidates = filter.candidates ? Prisma.sql`candidates (id) AS MATERIALIZED (${filter.candidates}),` : Prisma.empty;
  const rows = await db.$queryRaw<ItemRow[]>`
    WITH ${candidates} ${page}
    ${itemsOfPage(q.operatorId)}
    ORDER BY c."updatedAt" DESC, c.id DESC`;
  return pageOf(rows, q.limit, (r) => r.updatedAt);
}

/**
 * The `waiting` filter, the operators' queue: oldest wait first (the one waiting longest is
 * answered first), keyset on (waitingSince, id). Waiting conversations are few (index
 * Conversation(waitingSince)), so a search here simply tests each of them.
 */
async function listWaiting(db: DbLike, q: ListQuery): Promise<{ items: ConversationItem[]; nextCursor: string | null }> {
  const filter = filterSql('waiting', q.operatorId);
  const search = q.search?.trim();
  const rows = await db.$queryRaw<ItemRow[]>`
    WITH candidates (id) AS MATERIALIZED (${filter.candidates!}),
    page AS MATERIALIZED (
      SELECT c.id FROM ${rowsOf(q, Prisma.sql`candidates`)}
      WHERE ${sitesOf(q)} AND ${filter.where}
        AND ${q.cursor ? Prisma.sql`(c."waitingSince", c.id) > (${q.cursor.updatedAt}::timestamptz, ${q.cursor.id}::uuid)` : Prisma.sql`TRUE`}
        AND ${search ? matches(search, Prisma.raw('c')) : Prisma.sql`TRUE`}
      ORDER BY c."waitingSince" ASC, c.id ASC LIMIT ${q.limit + 1})
    ${itemsOfPage(q.operatorId)}
    ORDER BY c."waitingSince" ASC, c.id ASC`;
  return pageOf(rows, q.limit, (r) => r.waitingSince!);
}

/**
 * A narrow filter's page: its candidates sorted first, then its rule tested in that order only
 * until the page is full (`OFFSET 0` keeps the rule out of the sorted subquery, and the rule reads
 * `c` and `orr` as everywhere else). Tested before the sort, `failed` checked the latest run of
 * every one of 2,000 candidates (8,000 buffers) to keep 51.
 */
function candidatesPage(q: ListQuery, within: Prisma.Sql, bounds: Prisma.Sql, rule: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`page AS MATERIALIZED (
    SELECT c.id FROM (
      SELECT c.*, orr."lastReadAt" AS "operatorReadAt" FROM ${rowsOf(q, within)} WHERE ${bounds}
      ORDER BY c."updatedAt" DESC, c.id DESC OFFSET 0) c
    CROSS JOIN LATERAL (SELECT c."operatorReadAt" AS "lastReadAt") orr
    WHERE ${rule}
    ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${q.limit + 1})`;
}

/**
 * The conversations a page is chosen from (`c`): every one (walked by the list's index), or
 * only those of the id set `ids` (a CTE: a filter's candidates, a search's hits), read by
 * primary key; with this operator's read marker `orr`. `id = ANY(ARRAY(…))` keeps those reads
 * probes whatever the set's size is guessed to be: as a join, PostgreSQL hashed all 100,000
 * conversations to meet 1,000 candidates (35 ms against ~3 ms of probes: it prices a probe as a
 * disk read), and a search's hits (always guessed at ~8,000, GIN cannot tell a rare prefix from
 * a common one) priced the statement above jit_above_cost: 1.4 s of JIT compiling.
 */
const rowsOf = (q: ListQuery, ids: Prisma.Sql | null) =>
  Prisma.sql`${ids ? Prisma.sql`(SELECT * FROM "Conversation" WHERE id = ANY(ARRAY(SELECT id FROM ${ids}))) c` : Prisma.sql`"Conversation" c`}
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
