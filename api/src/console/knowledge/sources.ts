import type { Db } from '../../db/client.ts';
import { readPageErrors } from '../../knowledge/page-errors.ts';

/** A knowledge source as the console lists it: where from, what it holds, how its last sync went. */
export interface SourceStatus {
  id: string;
  url: string;
  pages: number;
  excerpts: number;
  lastSyncAt: Date | null;
  nextSyncAt: Date;
  /** a sync holds it now */
  syncing: boolean;
  /** why the last sync read nothing (the start URL or robots.txt could not be read) */
  lastError: string | null;
  /** the pages the last sync could not read, each with why */
  pageErrors: { url: string; error: string }[];
}

/** A site's sources, oldest first, with their counts and last sync. */
export async function listSources(db: Db, siteId: string): Promise<SourceStatus[]> {
  const rows = await db.knowledgeSource.findMany({
    where: { siteId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      url: true,
      lastSyncAt: true,
      nextSyncAt: true,
      syncLeaseUntil: true,
      lastError: true,
      pageErrors: true,
      _count: { select: { pages: true } },
    },
  });
  const counted = await db.$queryRaw<{ sourceId: string; n: number }[]>`
    SELECT p."sourceId", count(*)::int AS n FROM "KnowledgeExcerpt" e JOIN "KnowledgePage" p ON p.id = e."pageId"
    WHERE e."siteId" = ${siteId}::uuid GROUP BY p."sourceId"`;
  const excerpts = new Map(counted.map((c) => [c.sourceId, c.n]));
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    pages: r._count.pages,
    excerpts: excerpts.get(r.id) ?? 0,
    lastSyncAt: r.lastSyncAt,
    nextSyncAt: r.nextSyncAt,
    syncing: r.syncLeaseUntil !== null && r.syncLeaseUntil.getTime() > now,
    lastError: r.lastError,
    pageErrors: readPageErrors(r.pageErrors),
  }));
}
