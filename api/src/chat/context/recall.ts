import { Prisma } from '../../db/client.ts';
import { rawSqlOf, type RawSql } from '../../db/raw-sql.ts';
import type { DbLike } from '../../db/types.ts';
import { RECALL_HITS_MAX, type RecallHit } from './context-sections.ts';
import { recallTerms, tsQueryText } from './recall-query.ts';

export interface RecallScope {
  visitorId: string;
  siteId: string;
  conversationId: string;
  /** this conversation's messages from this `seq` on are in the run's history (or its batch) */
  windowStartSeq: bigint;
}

/**
 * How many of the visitor's newest messages (every role: about half are theirs) recall reads as
 * an index range; every eligible match among them is ranked. Reading them costs the same for a
 * visitor with 1,000 messages or 100,000, which is what keeps context build flat. Twice context-query's
 * HISTORY_ROWS (200): the history window, never recalled, can fill at most half of it.
 */
export const RECALL_RECENT_ROWS = 400;
/**
 * A term matched this many times in those recent messages is common for this visitor: its older
 * matches stay out of the ranking (the recent ones stand for them). A term matched fewer times is
 * looked up in all the older messages through the GIN index, cheap precisely because the term is
 * rare, which is how an old order number or product name still comes back from a long history.
 */
export const RECALL_COMMON_MIN = 10;

/**
 * Finds the visitor's older messages that relate to the pending batch, best first: PostgreSQL
 * full-text search over `Message.search` (a generated `to_tsvector('simple', content)` column)
 * with a query made of the terms of EVERY claimed message.
 *
 * Scope ({@link eligibleSql}): this visitor's conversations of this site only (never another
 * visitor's), never a private conversation's words outside that conversation, the visitor's own
 * words (`role = 'user'`, already answered or failed: never a row still pending or claimed, so
 * never this batch), and in this conversation only what lies before the history window (what the
 * model sees anyway is no news).
 *
 * Why `simple`: visitors write in any language, often not the site's, and nothing tells us which;
 * a language stemmer applied to the wrong language mangles words instead of matching them. `simple`
 * only lowercases, identically for every script; the query side drops stop words and matches long
 * terms as prefixes, which covers most inflections that extend a word (plurals, verb endings).
 * Ranked by `ts_rank` normalized by document length (flag 1), so one long message full of common
 * words does not outrank a short one that names the subject.
 *
 * What is ranked is bounded: ranking EVERY match grew with the visitor's history (43 ms
 * of a 108 ms context build at 100,000 earlier messages that all share "delivery"). A visitor with
 * at most {@link RECALL_RECENT_ROWS} messages gets every match ranked, as before; past that, the
 * candidates are the matches among the newest RECALL_RECENT_ROWS messages plus the older matches of
 * the terms those use fewer than {@link RECALL_COMMON_MIN} times. What a long history loses is the
 * old mentions of a word the visitor keeps using; a rare word is found however old.
 */
export async function recall(db: DbLike, scope: RecallScope, batchTexts: readonly string[], limit = RECALL_HITS_MAX): Promise<RecallHit[]> {
  if (recallTerms(batchTexts).length === 0) return [];
  return recallFrom(rawSqlOf(db), scope, batchTexts, await recentFrom(db, scope.visitorId), limit);
}

/**
 * {@link recall} with the range start already read ({@link recentFromSql}): a run reads that in its
 * first statement, so recall costs it one round trip after the history instead of two.
 */
export async function recallFrom(
  sql: RawSql,
  scope: RecallScope,
  batchTexts: readonly string[],
  from: bigint | null,
  limit = RECALL_HITS_MAX,
): Promise<RecallHit[]> {
  const terms = recallTerms(batchTexts);
  if (terms.length === 0) return [];
  return sql.rows<RecallHit>(recallSql(scope, terms, from, limit));
}

/**
 * The `seq` of the visitor's RECALL_RECENT_ROWS-th newest message, or null when they have fewer:
 * a backward walk of the (visitorId, seq) index that stops there (0.2 ms at 100,000 messages).
 * Its own statement so the main one gets it as a constant: `seq >= constant` is a narrow range the
 * planner reads through the index, where `seq >= (subquery)` has an unknown width. The walk leans
 * on statistics: a planner that still believes the visitor has a few hundred rows (their growth not
 * yet analyzed) reads and sorts all of them instead, 20-70 ms at 100,000, what recall cost before.
 */
export async function recentFrom(db: DbLike, visitorId: string): Promise<bigint | null> {
  const rows = await db.$queryRaw<{ seq: bigint }[]>(recentFromSql(visitorId));
  return rows[0]?.seq ?? null;
}

/**
 * The walk behind {@link recentFrom} as one `SELECT`, so a run's first statement can carry it as a
 * scalar subquery (chat/context/context-query.ts): it is planned on its own there too, and its result
 * reaches {@link recallSql} as a constant all the same.
 */
export function recentFromSql(visitorId: string): Prisma.Sql {
  return Prisma.sql`SELECT seq FROM "Message" WHERE "visitorId" = ${visitorId}::uuid
    ORDER BY seq DESC OFFSET ${RECALL_RECENT_ROWS - 1} LIMIT 1`;
}

/**
 * The one ranking statement behind {@link recall} (exported so a bench can `EXPLAIN` it), for
 * `terms` from {@link recallTerms} and `from` from {@link recentFrom}.
 *
 * `recent` is the index range of the newest messages, materialized before the other filters so
 * they cannot lead the planner to another index (with stale statistics it once ANDed the whole
 * (state, createdAt) index in). `rare` counts each term in those rows (at most 32 terms × 400
 * rows). `older` asks the GIN index over (visitorId, search) for the rare terms alone, only when
 * the visitor has older messages at all; `seq + 0` keeps the btree out of it. Having `visitorId`
 * in that GIN index (btree_gin) is what makes it read only this visitor's postings: measured when
 * it was made (424,200 messages, a visitor with 20,000), 9 ms against 140 ms for an index on
 * `search` alone. The last join on the conversation's owner keeps recall to this visitor and
 * site even should a copied `Message.visitorId` ever be wrong.
 */
export function recallSql(scope: RecallScope, terms: readonly string[], from: bigint | null, limit: number): Prisma.Sql {
  const query = Prisma.sql`to_tsquery('simple', ${tsQueryText(terms)})`;
  const termQueries = terms.map((t) => tsQueryText([t]));
  return Prisma.sql`
    WITH hidden AS MATERIALIZED (
      SELECT coalesce(array_agg(c.id), '{}') AS ids FROM "Conversation" c
      WHERE c."visitorId" = ${scope.visitorId}::uuid AND c.private AND c.id <> ${scope.conversationId}::uuid
    ),
    recent AS MATERIALIZED (
      SELECT m.seq, m.role, m.state, m."conversationId", m.content, m."createdAt", m.search
      FROM "Message" m
      WHERE m."visitorId" = ${scope.visitorId}::uuid AND m.seq >= ${from ?? 0n}
    ),
    recent_eligible AS MATERIALIZED (
      SELECT * FROM recent r WHERE ${eligibleSql('r', scope)}
    ),
    rare AS MATERIALIZED (
      SELECT string_agg(w.text, ' | ') AS text
      FROM unnest(${termQueries}::text[]) AS w(text)
      WHERE (SELECT count(*) FROM recent_eligible r WHERE r.search @@ to_tsquery('simple', w.text)) < ${RECALL_COMMON_MIN}
    ),
    older AS MATERIALIZED (
      SELECT m.seq, m.role, m.state, m."conversationId", m.content, m."createdAt", m.search
      FROM "Message" m
      WHERE ${from !== null} AND (SELECT text FROM rare) IS NOT NULL
        AND m."visitorId" = ${scope.visitorId}::uuid AND m.search @@ to_tsquery('simple', (SELECT text FROM rare))
        AND m.seq + 0 < ${from ?? 0n}
    ),
    candidates AS (
      SELECT * FROM recent_eligible WHERE search @@ ${query}
      UNION ALL
      SELECT * FROM older o WHERE ${eligibleSql('o', scope)}
    )
    SELECT k.content, k."createdAt", k."conversationId" = ${scope.conversationId}::uuid AS "sameConversation"
    FROM candidates k
    JOIN "Conversation" c ON c.id = k."conversationId"
    WHERE c."visitorId" = ${scope.visitorId}::uuid AND c."siteId" = ${scope.siteId}::uuid
    ORDER BY ts_rank(k.search, ${query}, 1) DESC, k."createdAt" DESC
    LIMIT ${limit}`;
}

/**
 * Recall's scope over the rows of `alias` (a message row), the one place it is written: the
 * visitor's own answered (or failed) words, outside this run's history window, and never from a
 * private conversation other than this one (a private conversation's words never serve
 * another conversation; its own run still recalls its earlier words and the visitor's other,
 * non-private conversations). The visitor and site are checked by the final join.
 */
function eligibleSql(alias: 'o' | 'r', scope: RecallScope): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`${a}.role = 'user' AND ${a}.state IN ('answered', 'failed')
    AND (${a}."conversationId" <> ${scope.conversationId}::uuid OR ${a}.seq < ${scope.windowStartSeq})
    AND ${a}."conversationId" <> ALL ((SELECT ids FROM hidden)::uuid[])`;
}
