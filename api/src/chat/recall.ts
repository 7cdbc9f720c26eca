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
 */
export async function recall(db: DbLike, scope: RecallScope, batchTexts: readonly string[], limit = RECALL_HITS_MAX): Promise<RecallHit[]> {
  const terms = recallTerms(batchTexts);
  if (terms.length === 0) return [];
  const query = tsQueryText(terms);
  const rows = await db.$queryRaw<{ content: string; createdAt: Date; sameConversation: boolean }[]>`
    SELECT m.content, m."createdAt", m."conversationId" = ${scope.conversationId}::uuid AS "sameConversation"
    FROM "Message" m
    JOIN "Conversation" c ON c.id = m."conversationId"
    WHERE c."visitorId" = ${scope.visitorId}::uuid AND c."siteId" = ${scope.siteId}::uuid
      AND m.role = 'user' AND m.state IN ('answered', 'failed')
      AND (m."conversationId" <> ${scope.conversationId}::uuid OR m.seq < ${scope.windowStartSeq})
      AND m.search @@ to_tsquery('simple', ${query})
    ORDER BY ts_rank(m.search, to_tsquery('simple', ${query}), 1) DESC, m."createdAt" DESC
    LIMIT ${limit}`;
  return rows;
}
