import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { recallTerms, tsQueryText } from '../chat/context/recall-query.ts';
import type { Embedder } from './embeddings.ts';
import { fuseRanks } from './rank-fusion.ts';
import type { VectorIndex } from './vector-index.ts';

/** Excerpts one run is shown at most: enough to answer from, few enough to cite. */
export const KNOWLEDGE_HITS_MAX = 4;
/** Candidates each ranking (words, meaning) gives the fusion. */
export const CANDIDATES = 20;
/** Characters of the batch embedded as the question (an excerpt is at most 1,000). */
export const QUESTION_CHARS_MAX = 2000;

/** An excerpt retrieval found, with the page it comes from (a file's or a snippet's has no address). */
export interface KnowledgeHit {
  excerptId: string;
  heading: string;
  text: string;
  url: string | null;
  title: string;
  snippet: boolean;
}

/** What retrieval found for a batch. */
export interface KnowledgeRetrieval {
  /** best first, at most KNOWLEDGE_HITS_MAX */
  hits: KnowledgeHit[];
  /** the site has knowledge and the batch had words to search it with: no hits then means nothing relevant */
  searched: boolean;
}

/** Ranking by meaning as well as words: the deployment's embeddings model and this process's vectors. */
export interface HybridSearch {
  embedder: Embedder;
  vectors: VectorIndex;
  /** a vector match below this cosine similarity is no match (EMBEDDINGS_MIN_SIMILARITY) */
  minSimilarity: number;
  /** the question could not be embedded: this batch is searched by text only */
  onError(err: unknown): void;
}

type TextRow = { version: number; hasKnowledge: boolean; hits: (KnowledgeHit & { rank: number })[] };

/**
 * The site's excerpts that best match the pending batch (all of it, as recall takes it). Words:
 * full-text search over `KnowledgeExcerpt.search` (the heading weighted above the text), by
 * `ts_rank` normalized by length, snippets that match ranked first (the owner's own answer wins). With `hybrid`, meaning
 * too: the batch's embedding against the site's excerpt vectors, both rankings fused by
 * reciprocal rank. Only this site's excerpts: the site id is the first condition of both, and
 * the first column of the text index, so another site's pages never come back.
 * @example await retrieveKnowledge(sql, siteId, ['How much is shipping to Oslo?']) // { hits: [{ heading: 'Costs', … }], searched: true }
 */
export async function retrieveKnowledge(
  sql: RawSql,
  siteId: string,
  batchTexts: readonly string[],
  hybrid: HybridSearch | null = null,
  limit = KNOWLEDGE_HITS_MAX,
): Promise<KnowledgeRetrieval> {
  const terms = recallTerms(batchTexts);
  const question = batchTexts.join('\n').trim().slice(0, QUESTION_CHARS_MAX);
  const embedding =
    hybrid && question
      ? hybrid.embedder.embed([question]).then(
          ([v]) => v ?? null,
          (err: unknown) => (hybrid.onError(err), null),
        )
      : null;
  const [row] = await sql.rows<TextRow>(textStatement(siteId, terms.length ? tsQueryText(terms) : null, hybrid ? CANDIDATES : limit));
  if (!row?.hasKnowledge) return { hits: [], searched: false };
  const vector = await embedding;
  if (!hybrid || !vector) return { hits: row.hits.slice(0, limit).map(withoutRank), searched: terms.length > 0 };

  const near = (await hybrid.vectors.nearest(siteId, row.version, vector, CANDIDATES)).filter((h) => h.similarity >= hybrid.minSimilarity);
  const byId = new Map(row.hits.map((h) => [h.excerptId, withoutRank(h)]));
  const missing = near.map((h) => h.excerptId).filter((id) => !byId.has(id));
  for (const hit of missing.length ? await excerptsByIds(sql, siteId, missing) : []) byId.set(hit.excerptId, hit);
  const snippets = new Set([...byId.values()].filter((h) => h.snippet).map((h) => h.excerptId));
  const fused = fuseRanks([row.hits.map((h) => h.excerptId), near.map((h) => h.excerptId)], snippets, limit);
  return { hits: fused.flatMap((id) => byId.get(id) ?? []), searched: true };
}

/** One statement: the site's knowledge version, whether it has any, and its best text matches with their pages. */
function textStatement(siteId: string, tsQuery: string | null, candidates: number): Prisma.Sql {
  return Prisma.sql`
    SELECT s."knowledgeVersion" AS version,
      EXISTS (SELECT 1 FROM "KnowledgeExcerpt" x WHERE x."siteId" = ${siteId}::uuid) AS "hasKnowledge",
      COALESCE((
        SELECT json_agg(json_build_object('excerptId', e.id, 'heading', e.heading, 'text', e.text, 'snippet', e.snippet,
          'url', p.url, 'title', p.title, 'rank', top.rank) ORDER BY top.snippet DESC, top.rank DESC, top.id)
        FROM (
          -- the sort carries ids and ranks only: texts are read for the few that win, not for every match
          SELECT x.id, x."pageId", x.snippet, ts_rank(x.search, q, 1) AS rank
          FROM "KnowledgeExcerpt" x, to_tsquery('simple', ${tsQuery}::text) q
          WHERE x."siteId" = ${siteId}::uuid AND x.search @@ q
          ORDER BY x.snippet DESC, rank DESC, x.id LIMIT ${candidates}
        ) top
        JOIN "KnowledgeExcerpt" e ON e.id = top.id
        JOIN "KnowledgePage" p ON p.id = top."pageId"), '[]'::json) AS hits
    FROM "Site" s WHERE s.id = ${siteId}::uuid`;
}

/** The excerpts of these ids, of this site only. */
function excerptsByIds(sql: RawSql, siteId: string, ids: string[]): Promise<KnowledgeHit[]> {
  return sql.rows<KnowledgeHit>(Prisma.sql`
    SELECT e.id AS "excerptId", e.heading, e.text, e.snippet, p.url, p.title
    FROM "KnowledgeExcerpt" e JOIN "KnowledgePage" p ON p.id = e."pageId"
    WHERE e."siteId" = ${siteId}::uuid AND e.id = ANY(${ids}::uuid[])`);
}

const withoutRank = ({ rank: _, ...hit }: KnowledgeHit & { rank: number }): KnowledgeHit => hit;
