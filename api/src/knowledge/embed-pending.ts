import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import type { Logger } from '../logging/logger.ts';
import { EMBED_BATCH, vectorBytes, type Embedder } from './embeddings.ts';
import { bumpKnowledgeVersion } from './knowledge-version.ts';

/** What embedding needs: the pool, the deployment's embeddings model (none: nothing to do), a logger. */
export interface EmbedDeps {
  sql: RawSql;
  embedder: Embedder | null;
  logger: Logger;
}

/**
 * Embeds the site's excerpts that have no vector of the deployment's model yet (none at all, or
 * another model's), a batch at a time, and moves the site's knowledge version so every process
 * reads its vectors again. Runs after each write of excerpts (a sync, a file, a snippet) and
 * from the sync timer ({@link embedDue}); an excerpt left without one (the embeddings server was
 * down) is still found by its words meanwhile. Two calls racing only fill what is still to do.
 * Returns how many it embedded.
 * @example await embedPending({ sql, embedder, logger }, siteId) // 42
 */
export async function embedPending(s: EmbedDeps, siteId: string): Promise<number> {
  const { embedder } = s;
  if (!embedder) return 0;
  let done = 0;
  try {
    for (;;) {
      const rows = await s.sql.rows<{ id: string; text: string }>(Prisma.sql`
        SELECT e.id, concat_ws(E'\n', p.title, e.heading, e.text) AS text
        FROM "KnowledgeExcerpt" e JOIN "KnowledgePage" p ON p.id = e."pageId"
        WHERE e."siteId" = ${siteId}::uuid AND ${stale(embedder.model)}
        ORDER BY e.id LIMIT ${EMBED_BATCH}`);
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map((r) => r.text));
      await s.sql.count(Prisma.sql`
        UPDATE "KnowledgeExcerpt" e SET embedding = v.embedding, "embeddedBy" = ${embedder.model}
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${vectors.map((v) => Buffer.from(vectorBytes(v)))}::bytea[]) AS v(id, embedding)
        WHERE e.id = v.id AND ${stale(embedder.model)}`);
      done += rows.length;
    }
  } catch (err) {
    s.logger.warn({ err, siteId, embedded: done }, 'knowledge excerpts not embedded; they are found by their words until they are');
  }
  if (done > 0) await bumpKnowledgeVersion(s.sql, siteId);
  return done;
}

/** Sites the sync timer looks at in one pass. */
export const EMBED_SITES_PER_PASS = 10;

/**
 * Embeds what is still to embed in any site (a few sites a pass): the excerpts an embeddings
 * server that was down missed, and every excerpt again after the model changed.
 * @example await embedDue({ sql, embedder, logger }) // 3 sites looked at
 */
export async function embedDue(s: EmbedDeps): Promise<number> {
  if (!s.embedder) return 0;
  const sites = await s.sql.rows<{ siteId: string }>(Prisma.sql`
    SELECT DISTINCT e."siteId" FROM "KnowledgeExcerpt" e WHERE ${stale(s.embedder.model)} LIMIT ${EMBED_SITES_PER_PASS}`);
  for (const { siteId } of sites) await embedPending(s, siteId);
  return sites.length;
}

/** An excerpt without a vector of this model (`KnowledgeExcerpt.embeddedBy` is indexed for it). */
const stale = (model: string) => Prisma.sql`(e."embeddedBy" IS NULL OR e."embeddedBy" <> ${model})`;
