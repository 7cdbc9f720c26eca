import { Prisma } from '../../db/client.ts';
import { searchQueryText } from './search-query.ts';

/** Newest rows a search probes one by one before it asks the full-text index instead. */
export const SEARCH_WINDOW = 1000;

/**
 * Messages with the words up to which their conversations are read one by one and sorted, with
 * no walk. A hit costs ~8 buffers (the message, the conversation by primary key, the read
 * marker), a conversation walked past with a hashed filter ~1; at 100,000 conversations the two
 * break even near 1,000 hits (8·H = 51·100,000 / H). The count stops at FEW_HITS + 1 messages,
 * so a common word pays ~800 buffers for asking ("parcel", 11,880 messages).
 */
export const FEW_HITS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a search page is chosen from, given by the list (list-query.ts). */
export interface SearchRows {
  /** the conversations `c` (with the operator's read marker `orr`): all, or only those of an id set */
  rows: (ids: Prisma.Sql | null) => Prisma.Sql;
  /** the filter's candidate ids (a CTE name), or null: any conversation may match */
  within: Prisma.Sql | null;
  /** site, cursor and filter, over `c` and `orr` */
  scope: Prisma.Sql;
  limit: number;
}

/**
 * The page of a search, as CTEs ending in `page(id)`. A conversation matches when one of its
 * messages has every word (`Message.search`, see search-query.ts) and it is not private, or the
 * text is its visitor's host user id, its visitor's id or its own id (`matches`).
 *
 * Three ways to find the page, and one statement picks (each arm of `page` runs only when its
 * condition holds, the CTEs it alone reads are never read otherwise):
 * - few hits (up to FEW_HITS messages: a rare word, an id): the GIN index over (visitorId,
 *   search) names them all (GIN serves a condition on any subset of its columns: no other
 *   index is needed), each is read by primary key, and they are sorted ("zanzibar", 404
 *   messages: 2,700 buffers, was 58,000);
 * - more: walking the newest SEARCH_WINDOW conversations in order, a probe of each one's
 *   messages, finds a common word's page at once and stops there ("parcel": 720 walked);
 * - more, and fewer than a page among the newest: the list's index is walked with the hits as
 *   a hashed filter.
 * The walk alone read every conversation for a rare or absent word (2.2–3.4 s, PostgreSQL
 * misjudges prefix terms as common and picks it), the index alone read 57,000 buffers for a
 * word on 12% of them. The walk is an ordered subquery the LIMIT stops early: as a
 * materialized CTE it was sorted, so every row of the window was tested, and the word test
 * became a hash of every message with the word (11,880 messages, 35 ms for "parcel").
 */
export function searchPage(text: string, q: SearchRows): Prisma.Sql {
  const query = searchQueryText(text);
  const id = UUID.test(text) ? text.toLowerCase() : null;
  // the same matches as `matches`, as sets of conversation ids from their indexes; words only count outside private conversations
  const byWords = query ? Prisma.sql`SELECT "conversationId" AS id FROM "Message" WHERE search @@ to_tsquery('simple', ${query})` : null;
  const byIds = [
    Prisma.sql`SELECT id FROM "Conversation" WHERE "visitorId" IN ${byUser(text)}`,
    ...(id ? [Prisma.sql`SELECT id FROM "Conversation" WHERE id = ${id}::uuid OR "visitorId" = ${id}::uuid`] : []),
  ];
  const hit = Prisma.sql`(${byWords ? Prisma.sql`(c.id IN (SELECT id FROM word_hits) AND NOT c.private) OR` : Prisma.empty} c.id IN (SELECT id FROM id_hits))`;
  const anyHit = Prisma.sql`${byWords ? Prisma.sql`SELECT id FROM word_hits UNION ` : Prisma.empty}SELECT id FROM id_hits`;
  // inline, the walk stops at its page; but `settled` may count the window again, and a filter's
  // window costs each candidate's check (2,000 failed ones: 44,000 buffers with it counted twice,
  // 24,000 read once), so that one is read once
  return Prisma.sql`
    newest AS ${q.within ? Prisma.sql`MATERIALIZED` : Prisma.sql`NOT MATERIALIZED`} (
      SELECT c.id, c."updatedAt", c."visitorId", c.private FROM ${q.rows(q.within)}
      WHERE ${q.scope} ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${SEARCH_WINDOW}),
    walked AS MATERIALIZED (
      SELECT w.id FROM newest w WHERE ${matches(text, Prisma.raw('w'))}
      ORDER BY w."updatedAt" DESC, w.id DESC LIMIT ${q.limit}),
    ${byWords ? Prisma.sql`word_hits AS MATERIALIZED (${byWords}),` : Prisma.empty}
    few AS MATERIALIZED (
      SELECT ${byWords ? Prisma.sql`(SELECT count(*) FROM (SELECT FROM word_hits LIMIT ${FEW_HITS + 1}) f) <= ${FEW_HITS}` : Prisma.sql`true`} AS yes),
    settled AS MATERIALIZED (
      SELECT NOT (SELECT yes FROM few)
        AND ((SELECT count(*) FROM walked) = ${q.limit} OR (SELECT count(*) FROM newest) < ${SEARCH_WINDOW}) AS yes),
    id_hits AS MATERIALIZED (${Prisma.join(byIds, ' UNION ')}),
    hits AS MATERIALIZED (${q.within ? Prisma.sql`(${anyHit}) INTERSECT SELECT id FROM ${q.within}` : anyHit}),
    page AS MATERIALIZED (
      SELECT id FROM walked WHERE (SELECT yes FROM settled)
      UNION ALL
      (SELECT c.id FROM ${q.rows(Prisma.sql`hits`)}
       WHERE (SELECT yes FROM few) AND ${q.scope} AND ${hit}
       ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${q.limit})
      UNION ALL
      (SELECT c.id FROM ${q.rows(q.within)}
       WHERE NOT (SELECT yes FROM few) AND NOT (SELECT yes FROM settled) AND ${q.scope} AND ${hit}
       ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${q.limit}))`;
}

/** Visitors whose host user id is the text: (siteId, externalId) is a unique index, one probe per site. */
const byUser = (text: string) =>
  Prisma.sql`(SELECT v.id FROM "Visitor" v WHERE (v."siteId", v."externalId") IN (SELECT s.id, ${text} FROM "Site" s))`;

/**
 * Whether the conversation aliased `at` (it needs `id`, `visitorId` and `private`) matches the
 * search, one conversation at a time: the words of one of its messages (never in a private
 * conversation: the console shows no words of it, so it must not find them either), its
 * visitor's host user id, its visitor's id or its own id. The words are a scalar subquery, a
 * probe of this conversation's few messages: as EXISTS, PostgreSQL may hash every message
 * holding the words instead (11,880 for "parcel", 35 ms) when it expects many conversations.
 * @example Prisma.sql`SELECT c.id FROM "Conversation" c WHERE ${matches('walnut', Prisma.raw('c'))}`
 */
export function matches(text: string, at: Prisma.Sql): Prisma.Sql {
  const query = searchQueryText(text);
  const id = UUID.test(text) ? text.toLowerCase() : null;
  const conditions = [
    ...(query
      ? [
          Prisma.sql`(NOT ${at}.private AND COALESCE((SELECT true FROM "Message" ms
            WHERE ms."conversationId" = ${at}.id AND ms.search @@ to_tsquery('simple', ${query}) LIMIT 1), false))`,
        ]
      : []),
    Prisma.sql`${at}."visitorId" IN ${byUser(text)}`,
    ...(id ? [Prisma.sql`${at}.id = ${id}::uuid`, Prisma.sql`${at}."visitorId" = ${id}::uuid`] : []),
  ];
  return Prisma.sql`(${Prisma.join(conditions, ' OR ')})`;
}
