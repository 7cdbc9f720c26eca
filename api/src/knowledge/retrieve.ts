import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { recallTerms, tsQueryText } from '../chat/context/recall-query.ts';

/** Excerpts one run is shown at most: enough to answer from, few enough to cite. */
export const KNOWLEDGE_HITS_MAX = 4;

/** An excerpt retrieval found, with the page it comes from. */
export interface KnowledgeHit {
  excerptId: string;
  heading: string;
  text: string;
  url: string;
  title: string;
  rank: number;
}

/**
 * The site's excerpts that best match the pending batch (all of it, as recall takes it): full-text
 * search over `KnowledgeExcerpt.search` (the heading weighted above the text), ranked by
 * `ts_rank` normalized by length. Only this site's excerpts: the site id is the index's first
 * column and the query's first condition, so another site's pages can never come back.
 * @example await retrieveKnowledge(sql, siteId, ['How much is shipping to Oslo?']) // [{ heading: 'Costs', … }]
 */
export async function retrieveKnowledge(
  sql: RawSql,
  siteId: string,
  batchTexts: readonly string[],
  limit = KNOWLEDGE_HITS_MAX,
): Promise<KnowledgeHit[]> {
  const terms = recallTerms(batchTexts);
  if (terms.length === 0) return [];
  return sql.rows<KnowledgeHit>(Prisma.sql`
    SELECT e.id AS "excerptId", e.heading, e.text, p.url, p.title, ts_rank(e.search, q, 1)::float8 AS rank
    FROM "KnowledgeExcerpt" e
    JOIN "KnowledgePage" p ON p.id = e."pageId",
      to_tsquery('simple', ${tsQueryText(terms)}) q
    WHERE e."siteId" = ${siteId}::uuid AND e.search @@ q
    ORDER BY rank DESC, e.id
    LIMIT ${limit}`);
}
