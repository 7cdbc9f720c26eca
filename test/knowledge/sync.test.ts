import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { retrieveKnowledge } from '../../api/src/knowledge/retrieve.ts';
import { syncSource } from '../../api/src/knowledge/sync-source.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * A source synced into the database from a real site on loopback, and retrieval over it: the
 * excerpt that answers comes first, another site's pages never come back, a page the sitemap no
 * longer lists drops out, an unchanged page is kept from a conditional request, and one sync at a
 * time per source.
 */
let heed: TestHeed;
let server: Server;
let base: string;
let listed = ['/shipping', '/returns'];
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav>Home · Shop · Cart</nav><main><article><h1>${title}</h1>${body}</article></main></body></html>`;
const PAGES: Record<string, string> = {
  '/shipping': page(
    'Shipping',
    '<p>We ship to Norway, Sweden and Denmark; most parcels arrive within two working days.</p><h2>Costs</h2><p>Delivery is free for orders above 50 EUR. Below that, delivery costs 4.90 EUR per order.</p>',
  ),
  '/returns': page(
    'Returns',
    '<p>Return any item within 30 days of delivery, unworn and with its labels. Refunds take five working days.</p>',
  ),
};

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { KNOWLEDGE_ALLOW_PRIVATE: '1' } });
  server = createServer((req, res) => {
    if (req.url === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<urlset>${listed.map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}</urlset>`);
    }
    const body = PAGES[req.url ?? ''];
    if (!body) return res.writeHead(404).end();
    const etag = `"${req.url}-1"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/html', etag });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server?.close(() => r()));
  await heed?.stop();
});

const newSite = (name: string) =>
  heed.services.db.site.create({ data: { key: `k-${randomUUID().slice(0, 8)}`, name }, select: { id: true } });

test('a synced source answers: the excerpt that says it comes first, with its page; other sites never see it', async () => {
  const shop = await newSite('Shop');
  const other = await newSite('Other shop');
  const source = await heed.services.db.knowledgeSource.create({
    data: { siteId: shop.id, url: `${base}/sitemap.xml` },
    select: { id: true },
  });
  expect(await syncSource(heed.services, source.id)).toEqual({ status: 'synced', pages: 2, changed: 2, removed: 0, errors: 0 });

  const { hits } = await retrieveKnowledge(heed.services.sql, shop.id, ['How much does delivery cost?']);
  expect(hits[0]).toMatchObject({ heading: 'Costs', url: `${base}/shipping`, title: 'Shipping' });
  expect(hits[0]!.text).toContain('free for orders above 50 EUR');
  expect(await retrieveKnowledge(heed.services.sql, other.id, ['How much does delivery cost?'])).toEqual({ hits: [], searched: false });

  const synced = await heed.services.db.knowledgeSource.findUniqueOrThrow({ where: { id: source.id } });
  expect(synced).toMatchObject({ lastError: null, pageErrors: [], syncLeaseUntil: null });
  expect(synced.nextSyncAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
});

test('the next sync keeps unchanged pages, drops the ones the sitemap no longer lists', async () => {
  const shop = await newSite('Shop two');
  const source = await heed.services.db.knowledgeSource.create({
    data: { siteId: shop.id, url: `${base}/sitemap.xml` },
    select: { id: true },
  });
  listed = ['/shipping', '/returns'];
  await syncSource(heed.services, source.id);
  listed = ['/shipping'];
  await heed.services.db.knowledgeSource.update({ where: { id: source.id }, data: { syncLeaseUntil: null } });
  expect(await syncSource(heed.services, source.id)).toEqual({ status: 'synced', pages: 1, changed: 0, removed: 1, errors: 0 });
  expect(await retrieveKnowledge(heed.services.sql, shop.id, ['unworn labels refunds'])).toEqual({ hits: [], searched: true });
  expect((await retrieveKnowledge(heed.services.sql, shop.id, ['delivery costs'])).hits[0]?.heading).toBe('Costs');
  listed = ['/shipping', '/returns'];
});

test('one sync at a time per source: while another worker holds it, it is refused; once that lease lapses, it is taken over', async () => {
  const shop = await newSite('Shop three');
  const source = await heed.services.db.knowledgeSource.create({
    data: { siteId: shop.id, url: `${base}/sitemap.xml` },
    select: { id: true },
  });
  // another worker's sync, in flight
  await heed.services.db.knowledgeSource.update({
    where: { id: source.id },
    data: { syncFence: 1, syncLeaseUntil: new Date(Date.now() + 3600_000) },
  });
  expect(await syncSource(heed.services, source.id)).toEqual({ status: 'busy' });
  expect(await heed.services.db.knowledgePage.count({ where: { sourceId: source.id } })).toBe(0);
  // that worker died: its lease lapsed
  await heed.services.db.knowledgeSource.update({ where: { id: source.id }, data: { syncLeaseUntil: new Date(Date.now() - 1000) } });
  expect((await syncSource(heed.services, source.id)).status).toBe('synced');
  expect(await heed.services.db.knowledgeSource.findUniqueOrThrow({ where: { id: source.id }, select: { syncFence: true } })).toEqual({
    syncFence: 2,
  });
  expect(await syncSource(heed.services, randomUUID())).toEqual({ status: 'gone' });
});
