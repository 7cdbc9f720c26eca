import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { csvRecords } from '../console/export-csv.ts';
import { errorOf, visitorOf, watchConsole } from './helpers.ts';

let heed: TestHeed;
let owner: TestOperator;
/** an agent of site X only */
let ava: TestOperator;
/** an agent of every site (chosen explicitly) */
let ben: TestOperator;
let siteX: string;
let siteY: string;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olga' });
  ava = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ava' });
  ben = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ben' });
  ({ id: siteX } = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } }));
  ({ id: siteY } = await heed.services.db.site.create({ data: { key: 'site-y', name: 'Site Y' }, select: { id: true } }));
});
afterAll(() => heed?.stop());

const listed = async (op: TestOperator, extra: { siteId?: string } = {}) =>
  (await op.api.console.conversations.list.query(extra)).items.map((i) => i.id).sort();

test("an owner sets an agent's sites; the agent then lists, streams, reads, exports and acts on those sites' conversations only (others are NOT_FOUND)", async () => {
  const set = await owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: [siteX] });
  expect(set).toMatchObject({ id: ava.id, role: 'agent', allSites: false, siteIds: [siteX] });
  const team = await owner.api.console.operators.list.query();
  expect(team.find((o) => o.id === ava.id)).toMatchObject({ allSites: false, siteIds: [siteX] });
  expect(team.find((o) => o.id === ben.id)).toMatchObject({ allSites: true, siteIds: [] });

  const live = watchConsole(heed, ava, { lastEventId: '0' });
  const onX = await (await heed.visitor()).conversation();
  const visitorY = await visitorOf(heed, 'site-y');
  const onY = await visitorY.conversation();
  await visitorY.send(onY, 'A message on site Y');
  await live.until('the conversation of site X', onX, () => true);

  expect(await listed(ava)).toEqual([onX]);
  expect(await listed(ava, { siteId: siteY })).toEqual([]);
  expect(await listed(ben)).toEqual([onX, onY].sort());
  expect(await listed(owner)).toEqual([onX, onY].sort());
  expect((await ava.api.console.conversations.transcript.query({ conversationId: onX })).conversation.id).toBe(onX);

  const c = ava.api.console.conversations;
  const refused = {
    transcript: await errorOf(c.transcript.query({ conversationId: onY })),
    markRead: await errorOf(c.markRead.mutate({ conversationId: onY })),
    retry: await errorOf(c.retry.mutate({ conversationId: onY })),
    rename: await errorOf(c.rename.mutate({ conversationId: onY, title: 'Mine now' })),
    retitle: await errorOf(c.retitle.mutate({ conversationId: onY })),
    takeOver: await errorOf(c.takeOver.mutate({ conversationId: onY })),
    reply: await errorOf(c.reply.mutate({ conversationId: onY, text: 'Hello from X', clientMessageId: 'ava-reply-0001' })),
    handBack: await errorOf(c.handBack.mutate({ conversationId: onY })),
  };
  for (const [name, error] of Object.entries(refused)) expect([name, error?.code]).toEqual([name, 'NOT_FOUND']);
  // nothing changed on Y
  const y = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: onY }, select: { heldById: true, title: true } });
  expect(y).toEqual({ heldById: null, title: 'A message on site Y' });
  expect(await heed.services.db.operatorRead.count({ where: { operatorId: ava.id } })).toBe(0);

  // the live list never delivered Y's conversation (changed before this one of X), and the export holds X's only
  const laterX = await (await heed.visitor()).conversation();
  await live.until('a conversation of site X made after Y changed', laterX, () => true);
  expect(live.items.some((i) => i.id === onY)).toBe(false);
  live.close();
  const csv = await (await fetch(`${heed.url}/admin/export/conversations.csv`, { headers: { cookie: ava.cookie } })).text();
  expect(
    csvRecords(csv)
      .map((r) => r.id)
      .sort(),
  ).toEqual([onX, laterX].sort());

  // the sites and the overview are scoped alike: Y is neither listed, readable nor counted
  expect((await ava.api.console.sites.list.query()).map((site) => site.id)).toEqual([siteX]);
  expect(await errorOf(ava.api.console.sites.get.query({ siteId: siteY }))).toMatchObject({ code: 'NOT_FOUND' });
  const countedFor = async (op: TestOperator, siteId?: string) =>
    (await op.api.console.overview.series.query({ range: '24h', ...(siteId ? { siteId } : {}) })).points.reduce(
      (n, p) => n + p.conversations,
      0,
    );
  expect(await countedFor(ava)).toBe(2);
  expect(await countedFor(ava, siteY)).toBe(0);
  expect(await countedFor(owner)).toBe(3);

  // an agent of every site acts on Y
  expect((await ben.api.console.conversations.takeOver.mutate({ conversationId: onY })).heldBy).toMatchObject({ name: 'Ben' });
  // and a change of sites applies at the agent's next request: all sites, chosen explicitly
  await owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: 'all' });
  expect(await listed(ava)).toEqual([onX, laterX, onY].sort());
  // while an empty list is no site, never every site
  await owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: [] });
  expect(await listed(ava)).toEqual([]);
  expect(await ava.api.console.sites.list.query()).toEqual([]);
  expect(await errorOf(ava.api.console.conversations.transcript.query({ conversationId: onX }))).toMatchObject({ code: 'NOT_FOUND' });
});

test("narrowing an agent's sites ends the agent's open live list at once; the next one carries the new sites only", async () => {
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Cy' });
  const live = watchConsole(heed, agent, { lastEventId: '0' });
  const visitorY = await visitorOf(heed, 'site-y');
  const before = await visitorY.conversation();
  await live.until('a conversation of site Y while Cy acts on every site', before, () => true);
  await owner.api.console.operators.setSites.mutate({ operatorId: agent.id, sites: [siteX] });
  await live.ended('the stream opened under every site');
  expect(live.errors).toEqual([]);
  live.close();
  const next = watchConsole(heed, agent, { lastEventId: '0' });
  const after = await visitorY.conversation();
  const onX = await (await heed.visitor()).conversation();
  await next.until('a conversation of site X made after one of Y', onX, () => true);
  expect(next.items.some((i) => i.id === after || i.id === before)).toBe(false);
  next.close();
});

test('setting sites is for owners, for agents only, and for sites that exist', async () => {
  expect(await errorOf(ava.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: [] }))).toMatchObject({
    code: 'FORBIDDEN',
    reason: 'owner_only',
  });
  expect(await errorOf(owner.api.console.operators.setSites.mutate({ operatorId: owner.id, sites: [siteX] }))).toMatchObject({
    code: 'BAD_REQUEST',
    reason: 'owner_sites',
  });
  expect(
    await errorOf(owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: ['00000000-0000-4000-8000-000000000000'] })),
  ).toMatchObject({
    code: 'BAD_REQUEST',
    reason: 'unknown_site',
  });
  expect(
    await errorOf(owner.api.console.operators.setSites.mutate({ operatorId: '00000000-0000-4000-8000-000000000000', sites: [] })),
  ).toMatchObject({ code: 'NOT_FOUND' });
  expect(await errorOf(owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: ['not-a-uuid'] }))).toMatchObject({
    code: 'BAD_REQUEST',
  });
  // the same site twice is stored once
  expect((await owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: [siteY, siteY] })).siteIds).toEqual([siteY]);
  // "every site" is the word 'all', never an empty list, and nothing else
  expect(await errorOf(owner.api.console.operators.setSites.mutate({ operatorId: ava.id, sites: 'every' as 'all' }))).toMatchObject({
    code: 'BAD_REQUEST',
  });
});
