import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import type { Logger } from '../logging/logger.ts';
import { EMBED_BATCH, vectorBytes, type Embedder } from './embeddings.ts';
import { bumpKnowledgeVersion } from './knowledge-version.ts';

/**
 * Embeds the site's excerpts that have no vector yet, a batch at a time, and moves the site's
 * knowledge version so every process reads its vectors again. Runs after each write of
 * excerpts (a sync, a file, a snippet); an excerpt left without a vector (the embeddings server
 * was down) is still found by its words, and is embedded by the site's next write. A write
 * that races another only fills what is still empty. Returns how many it embedded.
 * @example await embedPending({ sql, embedder, logger }, siteId) // 42
 */
export async function embedPending(s: { sql: RawSql; embedder: Embedder | null; logger: Logger }, siteId: string): Promise<number> {
  const { embedder } = s;
  if (!embedder) return 0;
  let done = 0;
  try {
    for (;;) {
      const rows = await s.sql.rows<{ id: string; text: string }>(Prisma.sql`
        SELECT e.id, concat_ws(E'\n', p.title, e.heading, e.text) AS text
        FROM "KnowledgeExcerpt" e JOIN "KnowledgePage" p ON p.id = e."pageId"
        WHERE e."siteId" = ${siteId}::uuid AND e.embedding IS NULL
        ORDER BY e.id LIMIT ${EMBED_BATCH}`);
      if (rows.length === 0) break;
      const vectors = await embedder.embed(rows.map((r) => r.text));
      await s.sql.count(Prisma.sql`
        UPDATE "KnowledgeExcerpt" e SET embedding = v.embedding
        FROM unnest(${rows.map((r) => r.id)}::uuid[], ${vectors.map((v) => Buffer.from(vectorBytes(v)))}::bytea[]) AS v(id, embedding)
        WHERE e.id = v.id AND e.embedding IS NULL`);
      done += rows.length;
    }
  } catch (err) {
    s.logger.warn({ err, siteId, embedded: done }, 'knowledge excerpts not embedded; they are found by their words until the next sync');
  }
  if (done > 0) await bumpKnowledgeVersion(s.sql, siteId);
  return done;
}
