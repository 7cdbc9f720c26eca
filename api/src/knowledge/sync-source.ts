import { Prisma } from '../db/client.ts';
import type { Services } from '../services.ts';
import { crawl, type CrawlLimits, type CrawlResult } from './crawl.ts';
import { embedPending } from './embed-pending.ts';
import { bumpKnowledgeVersion } from './knowledge-version.ts';

/** Per-page errors a source keeps to show (the first ones: a broken site repeats itself). */
export const PAGE_ERRORS_KEPT = 50;

/** What writing a site's knowledge needs: the stores, and the embeddings model when there is one. */
export type KnowledgeWriter = Pick<Services, 'db' | 'sql' | 'config' | 'logger' | 'knowledge'>;

/** What a sync did, for its log line and the console. */
export interface SyncOutcome {
  status: 'synced' | 'busy' | 'lost' | 'gone';
  pages?: number;
  changed?: number;
  removed?: number;
  errors?: number;
}

/** The crawl limits of the deployment's settings. */
export function crawlLimits(s: Pick<Services, 'config'>): CrawlLimits {
  const c = s.config;
  return {
    allowPrivate: c.KNOWLEDGE_ALLOW_PRIVATE === '1',
    maxBytes: c.KNOWLEDGE_MAX_PAGE_BYTES,
    timeoutMs: c.KNOWLEDGE_PAGE_TIMEOUT_MS,
    maxPages: c.KNOWLEDGE_MAX_PAGES,
    totalTimeMs: c.KNOWLEDGE_SYNC_MS,
  };
}

/**
 * Syncs one knowledge source: claims it (a fence and a lease, so two workers never sync it at
 * once, and a sync whose worker died is taken over once its lease lapses), crawls it asking
 * conditionally for the pages it has, then in one transaction, only while its claim still
 * holds: replaces the excerpts of changed pages, drops pages the source no longer lists, keeps
 * unchanged ones, records the per-page errors and when the next sync is due.
 * @example await syncSource(services, sourceId) // { status: 'synced', pages: 12, changed: 3, removed: 0, errors: 1 }
 */
export async function syncSource(s: KnowledgeWriter, sourceId: string, limits = crawlLimits(s)): Promise<SyncOutcome> {
  const leaseMs = limits.totalTimeMs + 60_000;
  // only a site is crawled: a file or a snippet is read once, when the owner gives it
  const [claim] = await s.db.$queryRaw<{ fence: number; url: string; siteId: string; builtIn: boolean }[]>`
    UPDATE "KnowledgeSource" SET "syncFence" = "syncFence" + 1, "syncLeaseUntil" = now() + make_interval(secs => ${leaseMs / 1000})
    WHERE id = ${sourceId}::uuid AND kind = 'site' AND url IS NOT NULL AND ("syncLeaseUntil" IS NULL OR "syncLeaseUntil" < now())
    RETURNING "syncFence" AS fence, url, "siteId", "builtIn"`;
  if (!claim) return { status: (await s.db.knowledgeSource.count({ where: { id: sourceId } })) ? 'busy' : 'gone' };

  const known = await s.db.knowledgePage.findMany({ where: { sourceId }, select: { url: true, etag: true, lastModified: true } });
  const result = await crawl(
    claim.url,
    { ...limits, allowPrivate: limits.allowPrivate || claim.builtIn },
    new Map(known.flatMap((p) => (p.url ? [[p.url, p] as const] : []))),
  );
  const outcome = await store(s, sourceId, claim, result);
  if (outcome.status === 'synced' && (outcome.changed || outcome.removed)) await bumpKnowledgeVersion(s.sql, claim.siteId);
  if (outcome.status === 'synced') await embedPending({ ...s, embedder: s.knowledge.embedder }, claim.siteId);
  s.logger.info({ sourceId, siteId: claim.siteId, ...outcome }, 'knowledge source synced');
  return outcome;
}

async function store(
  s: Pick<Services, 'db'>,
  sourceId: string,
  claim: { fence: number; siteId: string },
  result: CrawlResult,
): Promise<SyncOutcome> {
  return s.db.$transaction(
    async (tx) => {
      const [mine] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM "KnowledgeSource" WHERE id = ${sourceId}::uuid AND "syncFence" = ${claim.fence} FOR UPDATE`;
      if (!mine) return { status: 'lost' as const };
      // a start URL or robots.txt that could not be read says nothing about the pages: they stay
      const readNothing = result.listed.length === 0 || (result.pages.length === 0 && result.unchanged.length === 0);
      const listed = new Set(result.listed);
      const { count: removed } = readNothing
        ? { count: 0 }
        : await tx.knowledgePage.deleteMany({ where: { sourceId, url: { notIn: [...listed] } } });
      for (const page of result.pages) {
        const { id } = await tx.knowledgePage.upsert({
          where: { sourceId_url: { sourceId, url: page.url } },
          create: {
            sourceId,
            siteId: claim.siteId,
            url: page.url,
            title: page.title.slice(0, 300),
            etag: page.etag,
            lastModified: page.lastModified,
          },
          update: { title: page.title.slice(0, 300), etag: page.etag, lastModified: page.lastModified, fetchedAt: new Date() },
          select: { id: true },
        });
        await tx.knowledgeExcerpt.deleteMany({ where: { pageId: id } });
        await tx.knowledgeExcerpt.createMany({
          data: page.excerpts.map((e, position) => ({
            pageId: id,
            siteId: claim.siteId,
            position,
            heading: e.heading.slice(0, 300),
            text: e.text,
          })),
        });
      }
      const pages = await tx.knowledgePage.count({ where: { sourceId } });
      const whole = readNothing && result.errors.length > 0 ? result.errors[0]!.error.slice(0, 300) : null;
      await tx.$executeRaw`
        UPDATE "KnowledgeSource" SET "lastSyncAt" = now(), "lastError" = ${whole},
          "pageErrors" = ${JSON.stringify(result.errors.slice(0, PAGE_ERRORS_KEPT))}::jsonb,
          "nextSyncAt" = now() + make_interval(hours => "syncEveryHours"), "syncLeaseUntil" = NULL
        WHERE id = ${sourceId}::uuid`;
      return { status: 'synced' as const, pages, changed: result.pages.length, removed, errors: result.errors.length };
    },
    // a big page set writes many rows: more than the default 5 s on a busy machine
    { timeout: 60_000, isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted },
  );
}
