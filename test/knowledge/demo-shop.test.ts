import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDemoShop, HELP_PAGES } from '../../demo/server.ts';
import { seedDemoKnowledge } from '../../api/src/db/seed-demo.ts';
import { retrieveKnowledge } from '../../api/src/knowledge/retrieve.ts';
import { syncSource } from '../../api/src/knowledge/sync-source.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * The demo site's knowledge, as `npm start` sets it up: the demo shop's help pages, listed by its
 * sitemap on loopback, are a built-in source (read although owners' sources may not reach
 * loopback), and a question finds the page that answers it; the demo model then cites it.
 */
let heed: TestHeed;
let shop: ReturnType<typeof createDemoShop>;
let shopUrl: string;
beforeAll(async () => {
  // KNOWLEDGE_ALLOW_PRIVATE stays off: only the built-in source may read loopback
  heed = await TestHeed.start({ site: true });
  shop = createDemoShop({ siteKey: heed.siteKey, heedUrl: () => `${heed.url}/` });
  await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => shop?.close(() => r()));
  await heed?.stop();
});

test('the shop’s help pages sync as the demo site’s built-in source, and a question finds its page', async () => {
  const id = await seedDemoKnowledge(heed.services.db, heed.siteKey, `${shopUrl}/sitemap.xml`);
  expect(await syncSource(heed.services, id!)).toMatchObject({ status: 'synced', pages: HELP_PAGES.length, errors: 0 });
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const {
    hits: [best],
  } = await retrieveKnowledge(heed.services.sql, site.id, ['How long do I have to return an item?']);
  expect(best).toMatchObject({ url: `${shopUrl}/returns`, title: 'Returns and refunds · Trailhead Outfitters' });

  // the demo model answers from it, citing the page
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, 'How long do I have to return an item?');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  if (done.type !== 'reply.completed') throw new Error('unreachable');
  expect(done.message.content).toMatch(/^From our Returns and refunds page: “.+” \[1\]$/);
  expect(done.message.sources).toEqual([{ n: 1, title: 'Returns and refunds · Trailhead Outfitters', url: `${shopUrl}/returns` }]);
  events.close();
});

test('an owner’s source on the same loopback address is refused', async () => {
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const source = await heed.services.db.knowledgeSource.create({ data: { siteId: site.id, url: `${shopUrl}/` }, select: { id: true } });
  expect(await syncSource(heed.services, source.id)).toMatchObject({ status: 'synced', pages: 0 });
  const stored = await heed.services.db.knowledgeSource.findUniqueOrThrow({ where: { id: source.id }, select: { lastError: true } });
  expect(stored.lastError).toMatch(/private or local address/);
});
