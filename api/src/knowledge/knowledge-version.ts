import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';

/**
 * Moves the site's `knowledgeVersion` after its excerpts changed: each process's vectors of
 * the site (vector-index.ts) are read again by its next run.
 * @example await bumpKnowledgeVersion(sql, siteId)
 */
export async function bumpKnowledgeVersion(sql: RawSql, siteId: string): Promise<void> {
  await sql.count(Prisma.sql`UPDATE "Site" SET "knowledgeVersion" = "knowledgeVersion" + 1 WHERE id = ${siteId}::uuid`);
}
