import { Prisma } from '../../db/client.ts';
import { searchQueryText } from './search-query.ts';

/** Newest rows a search probes one by one before it asks the full-text index instead. */
export const SEARCH_WINDOW = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The page of a search, as CTEs ending in `page(id)`, given the list's rows (`from`: the
 * conversation `c` and the operator's read marker `orr`) and its scope (site, cursor,
 * filter). A conversation matches when one of its messages has every word (`Message.search`, see
 * search-query.ts) and it is not private, or the text is its visitor's host user id, its
 * visitor's id or its own id (`matches`).
 *
 * Two ways to find the page, and one statement picks: a common word is on many conversations,
 * so probing the newest SEARCH_WINDOW conversations in order finds a page at once; a rare
 * word is on few, so the GIN index over (visitorId, search) names them all first (GIN serves a
 * condition on any subset of its columns: no other index is needed) and they are sorted. The
 * index branch runs only when the window did not fill the page (its CTE is never read
 * otherwise). Either alone was slow at 100,000 conversations: the walk alone read every
 * conversation for a rare or absent word (2.2–3.4 s, PostgreSQL misjudges prefix terms as
 * common and picks it), the index alone read 57,000 buffers for a word on 12% of them.
 */
export function searchPage(text: string, from: Prisma.Sql, scope: Prisma.Sql, limit: number): Prisma.Sql {
  const query = searchQueryText(text);
  const id = UUID.test(text) ? text.toLowerCase() : null;
  // the same matches as `matches`, as sets of conversation ids from their indexes; words only count outside private conversations
  const byWords = query ? Prisma.sql`SELECT "conversationId" AS id FROM "Message" WHERE search @@ to_tsquery('simple', ${query})` : null;
  const byIds = [
    Prisma.sql`SELECT id FROM "Conversation" WHERE "visitorId" IN ${byUser(text)}`,
    ...(id ? [Prisma.sql`SELECT id FROM "Conversation" WHERE id = ${id}::uuid OR "visitorId" = ${id}::uuid`] : []),
  ];
  const hit = Prisma.sql`(${byWords ? Prisma.sql`(c.id IN (SELECT id FROM word_hits) AND NOT c.private) OR` : Prisma.empty} c.id IN (SELECT id FROM id_hits))`;
  return Prisma.sql`
    newest AS MATERIALIZED (
      SELECT c.id, c."updatedAt", c."visitorId", c.private FROM ${from}
      WHERE ${scope} ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${SEARCH_WINDOW}),
    walked AS MATERIALIZED (
      SELECT w.id, w."updatedAt" FROM newest w WHERE ${matches(text, Prisma.raw('w'))}
      ORDER BY w."updatedAt" DESC, w.id DESC LIMIT ${limit}),
    settled AS MATERIALIZED (
      SELECT (SELECT count(*) FROM walked) = ${limit} OR (SELECT count(*) FROM newest) < ${SEARCH_WINDOW} AS yes),
    ${byWords ? Prisma.sql`word_hits AS MATERIALIZED (${byWords}),` : Prisma.empty}
    id_hits AS MATERIALIZED (${Prisma.join(byIds, ' UNION ')}),
    page AS MATERIALIZED (
      SELECT id FROM walked WHERE (SELECT yes FROM settled)
      UNION ALL
      (SELECT c.id FROM ${from}
       WHERE NOT (SELECT yes FROM settled) AND ${scope} AND ${hit}
       ORDER BY c."updatedAt" DESC, c.id DESC LIMIT ${limit}))`;
}

/** Visitors whose host user id is the text: (siteId, externalId) is a unique index, one probe per site. */
const byUser = (text: string) => Prisma.sql`(SELECT v.id FROM "Visitor" v WHERE (v."siteId", v."externalId") IN (SELECT s.id, ${text} FROM "Site" s))`;

/**
 * Whether the conversation aliased `at` (it needs `id`, `visitorId` and `private`) matches the
 * search, one conversation at a time: the words of one of its messages (never in a private
 * conversation: the console shows no words of it, so it must not find them either), its
 * visitor's host user id, its visitor's id or its own id.
 * @example Prisma.sql`SELECT c.id FROM "Conversation" c WHERE ${matches('walnut', Prisma.raw('c'))}`
 */
export function matches(text: string, at: Prisma.Sql): Prisma.Sql {
  const query = searchQueryText(text);
  const id = UUID.test(text) ? text.toLowerCase() : null;
  const conditions = [
    ...(query
      ? [Prisma.sql`(NOT ${at}.private AND EXISTS (SELECT 1 FROM "Message" ms WHERE ms."conversationId" = ${at}.id AND ms.search @@ to_tsquery('simple', ${query})))`]
      : []),
    Prisma.sql`${at}."visitorId" IN ${byUser(text)}`,
    ...(id ? [Prisma.sql`${at}.id = ${id}::uuid`, Prisma.sql`${at}."visitorId" = ${id}::uuid`] : []),
  ];
  return Prisma.sql`(${Prisma.join(conditions, ' OR ')})`;
}
