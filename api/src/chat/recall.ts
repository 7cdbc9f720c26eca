import type { DbLike } from '../db/types.ts';
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
 * Finds the visitor's older messages that relate to the pending batch, best first: PostgreSQL
 * full-text search over `Message.search` (a generated `to_tsvector('simple', content)` column
 * with a GIN index) with a query made of the terms of EVERY claimed message.
 *
 * Scope is the SQL's WHERE clause: this visitor's conversations of this site only (never another
 * visitor's), the visitor's own words (`role = 'user'`, already answered or failed: never a row
 * still pending or claimed, so never this batch), and in this conversation only what lies
 * before the history window (what the model sees anyway is no news).
 *
 * Why `simple`: visitors write in any language, often not the site's, and nothing tells us which;
 * a language stemmer applied to the wrong language mangles words instead of matching them. `simple`
 * only lowercases, identically for every script; the query side drops stop words and matches long
 * terms as prefixes, which covers most inflections that extend a word (plurals, verb endings).
 * Ranked by `ts_rank` normalized by document length (flag 1), so one long message full of common
 * words does not outrank a short one that names the subject.
 *
 * `m.visitorId` lets the GIN index over (visitorId, search) (btree_gin) intersect the visitor's
 * postings with the terms' inside the index; the join on the conversation's owner is what keeps
 * recall to this visitor even should a copied visitorId ever be wrong. Measured on PostgreSQL 15,
 * 424,200 messages (2,002 visitors, 12 Zipf-distributed words each), six terms two of which are
 * in ~10% of all messages, median of five runs: a visitor with 200 messages 1.3 ms either way; a
 * visitor with 20,000 messages 140 ms with a GIN index on `search` alone (it reads every visitor's
 * ~60,000 matches, then filters) and 9 ms with the (visitorId, search) index.
 */
export async function recall(db: DbLike, scope: RecallScope, batchTexts: readonly string[], limit = RECALL_HITS_MAX): Promise<RecallHit[]> {
  const terms = recallTerms(batchTexts);
  if (terms.length === 0) return [];
  const query = tsQueryText(terms);
  const rows = await db.$queryRaw<{ content: string; createdAt: Date; sameConversation: boolean }[]>`
    SELECT m.content, m."createdAt", m."conversationId" = ${scope.conversationId}::uuid AS "sameConversation"
    FROM "Message" m
    JOIN "Conversation" c ON c.id = m."conversationId"
    WHERE m."visitorId" = ${scope.visitorId}::uuid
      AND c."visitorId" = ${scope.visitorId}::uuid AND c."siteId" = ${scope.siteId}::uuid
      AND m.role = 'user' AND m.state IN ('answered', 'failed')
      AND (m."conversationId" <> ${scope.conversationId}::uuid OR m.seq < ${scope.windowStartSeq})
      AND m.search @@ to_tsquery('simple', ${query})
    ORDER BY ts_rank(m.search, to_tsquery('simple', ${query}), 1) DESC, m."createdAt" DESC
    LIMIT ${limit}`;
  return rows;
}
