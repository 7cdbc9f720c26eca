import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startRetentionSweep, sweepRetention } from '../../api/src/privacy/retention-sweep.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';

/**
 * A site keeps conversations N days after their last activity: the sweep a worker runs at its
 * start removes older ones with everything they left behind (messages, runs, the visitor's
 * events, the file), leaves newer ones and other sites' alone, records when it ran, and any
 * number of sweeps at once split the rows between them.
 */
let heed: TestHeed;
let siteId: string;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 1 });
  siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
});
afterAll(() => heed?.stop());

/** A conversation with a reply and a file, its last activity `daysAgo` days back. */
async function conversationWith(visitor: TestVisitor, marker: string, daysAgo: number): Promise<string> {
  const conversationId = await visitor.conversation();
  heed.model.script({ text: `About ${marker}.` });
  await visitor.send(conversationId, `Question ${marker}`);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) > 0);
  const upload = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=n.txt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor.token}`, origin: 'https://shop.example', 'content-type': 'application/octet-stream' },
    body: new TextEncoder().encode(`file ${marker}`),
  });
  expect(upload.status).toBe(201);
  // the one way to have an old conversation without waiting for days: its activity time, moved back
  await heed.services.db.$executeRaw`
    UPDATE "Conversation" SET "updatedAt" = now() - make_interval(days => ${daysAgo}::int) WHERE id = ${conversationId}::uuid`;
  return conversationId;
}

test('a conversation past the retention is swept at start-up with all it left; a newer one stays', async () => {
  await heed.services.db.site.update({ where: { id: siteId }, data: { retentionDays: 30 } });
  const old = `old${randomUUID().replaceAll('-', '')}`;
  const fresh = `new${randomUUID().replaceAll('-', '')}`;
  const visitor = await heed.visitor();
  const oldId = await conversationWith(visitor, old, 31);
  const freshId = await conversationWith(visitor, fresh, 29);
  // the visitor's tab, from the log's position before the sweep: it hears of it whenever its stream opens
  const tab = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);

  const sweep = startRetentionSweep(heed.services, 60 * 60 * 1000);
  try {
    const site = await heed.until('the sweep at start-up', async () => {
      const s = await heed.services.db.site.findUniqueOrThrow({
        where: { id: siteId },
        select: { retentionSweptAt: true, retentionSweptCount: true },
      });
      return s.retentionSweptAt && s;
    });
    expect(site.retentionSweptCount).toBe(1);
  } finally {
    await sweep.stop();
  }
  await tab.waitFor((e) => e.type === 'conversation.deleted' && e.conversationId === oldId);
  tab.close();
  expect(await findMarker(markerPlacesOf(heed), old)).toEqual([]);
  expect((await findMarker(markerPlacesOf(heed), fresh)).length).toBeGreaterThan(0);
  expect((await visitor.api.conversation.list.query()).conversations.map((c) => c.id)).toEqual([freshId]);
});

test('sweeps running at once never take the same rows, and a site without retention keeps everything', async () => {
  await heed.services.db.site.update({ where: { id: siteId }, data: { retentionDays: 35 } });
  const visitor = await heed.visitor();
  const doomed: string[] = [];
  for (let i = 0; i < 6; i++) doomed.push(await conversationWith(visitor, `sw${i}${randomUUID().replaceAll('-', '')}`, 40));
  const passes = await Promise.all([1, 2, 3].map(() => sweepRetention(heed.services, { batch: 1 })));
  expect(passes.reduce((n, p) => n + p.conversations, 0)).toBe(6);
  expect(await heed.services.db.conversation.count({ where: { id: { in: doomed } } })).toBe(0);

  await heed.services.db.site.update({ where: { id: siteId }, data: { retentionDays: null } });
  const keep = await conversationWith(visitor, `kp${randomUUID().replaceAll('-', '')}`, 4000);
  expect((await sweepRetention(heed.services)).conversations).toBe(0);
  expect(await heed.services.db.conversation.count({ where: { id: keep } })).toBe(1);
});
