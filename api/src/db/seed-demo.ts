import type { Db } from './client.ts';

/** Makes sure the demo site exists, so the demo page works on first run. */
export async function seedDemoSite(db: Db, key: string): Promise<void> {
  if (!key) return;
  await db.site.upsert({ where: { key }, update: {}, create: { key, name: 'Heed demo' } });
}

/**
 * Makes the demo shop's sitemap (`sitemapUrl`, on this machine) the demo site's knowledge source,
 * built in (read from loopback, which owners' sources may not be), and due now: the demo assistant
 * answers from the shop's help pages and cites them. Answers the source's id.
 */
export async function seedDemoKnowledge(db: Db, key: string, sitemapUrl: string): Promise<string | null> {
  const site = key ? await db.site.findUnique({ where: { key }, select: { id: true } }) : null;
  if (!site) return null;
  const source = await db.knowledgeSource.upsert({
    where: { siteId_url: { siteId: site.id, url: sitemapUrl } },
    update: { builtIn: true, nextSyncAt: new Date() },
    create: { siteId: site.id, url: sitemapUrl, builtIn: true },
    select: { id: true },
  });
  return source.id;
}
