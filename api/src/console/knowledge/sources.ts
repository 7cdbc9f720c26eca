import type { Db } from '../../db/client.ts';
import { readPageErrors } from '../../knowledge/page-errors.ts';

/** A knowledge source as the console lists it: where from, what it holds, how its last sync went. */
export interface SourceStatus {
  id: string;
  kind: 'site' | 'file' | 'snippet';
  /** a site's sitemap or page URL */
  url: string | null;
  /** a file's name or a snippet's question */
  name: string | null;
  /** a file's size as uploaded */
  bytes: number | null;
  /** a snippet's answer */
  answer: string | null;
  pages: number;
  excerpts: number;
  lastSyncAt: Date | null;
  /** null for a file or a snippet, which are never synced */
  nextSyncAt: Date | null;
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
      kind: true,
      url: true,
      name: true,
      bytes: true,
      lastSyncAt: true,
      nextSyncAt: true,
      syncLeaseUntil: true,
      lastError: true,
      pageErrors: true,
      _count: { select: { pages: true } },
    },
  });
  // a snippet's answer is its excerpts' text, in order
  const counted = await db.$queryRaw<{ sourceId: string; n: number; answer: string | null }[]>`
    SELECT p."sourceId", count(*)::int AS n,
      string_agg(e.text, E'\n' ORDER BY e.position) FILTER (WHERE e.snippet) AS answer
    FROM "KnowledgeExcerpt" e JOIN "KnowledgePage" p ON p.id = e."pageId"
    WHERE e."siteId" = ${siteId}::uuid GROUP BY p."sourceId"`;
  const excerpts = new Map(counted.map((c) => [c.sourceId, c]));
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    url: r.url,
    name: r.name,
    bytes: r.bytes,
    answer: excerpts.get(r.id)?.answer ?? null,
    pages: r._count.pages,
    excerpts: excerpts.get(r.id)?.n ?? 0,
    lastSyncAt: r.lastSyncAt,
    nextSyncAt: r.nextSyncAt,
    syncing: r.syncLeaseUntil !== null && r.syncLeaseUntil.getTime() > now,
    lastError: r.lastError,
    pageErrors: readPageErrors(r.pageErrors),
  }));
}
