import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeClient, TestHeed } from '../support/harness.ts';

/**
 * session.start: an anonymous visitor per browser, resumed with the signed token the widget
 * keeps, carrying the browser's IANA time zone (which renders a batch's local times; the
 * rendering itself is covered by the pending-turn unit tests).
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

const anonymous = () => makeClient(heed.url, null);
const storedVisitor = (id: string) =>
  heed.services.db.visitor.findUniqueOrThrow({ where: { id }, select: { siteId: true, timeZone: true, externalId: true } });
const siteId = async () => (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;

test('starting a session creates an anonymous visitor of the site, storing the browser’s time zone', async () => {
  const before = await heed.services.db.visitor.count();
  const session = await anonymous().session.start.mutate({ siteKey: heed.siteKey, timeZone: 'Asia/Kathmandu' });
  expect(session).toMatchObject({ timeZone: 'Asia/Kathmandu', resumed: false, site: { name: 'Test site' } });
  expect(session.visitorToken).toMatch(/^v2\./);
  expect(await heed.services.db.visitor.count()).toBe(before + 1);
  expect(await storedVisitor(session.visitorId)).toEqual({ siteId: await siteId(), timeZone: 'Asia/Kathmandu', externalId: null });
});

test('a session started without a time zone stores UTC', async () => {
  const session = await anonymous().session.start.mutate({ siteKey: heed.siteKey });
  expect(session.timeZone).toBe('UTC');
  expect((await storedVisitor(session.visitorId)).timeZone).toBe('UTC');
});

test('resuming with the token returns the same visitor and their conversations, without creating another', async () => {
  const first = await anonymous().session.start.mutate({ siteKey: heed.siteKey, timeZone: 'Europe/Paris' });
  const conversation = await makeClient(heed.url, first.visitorToken).conversation.create.mutate();
  const before = await heed.services.db.visitor.count();

  const again = await anonymous().session.start.mutate({
    siteKey: heed.siteKey,
    visitorToken: first.visitorToken,
    timeZone: 'Europe/Paris',
  });
  expect(again).toMatchObject({ visitorId: first.visitorId, resumed: true, timeZone: 'Europe/Paris' });
  expect(await heed.services.db.visitor.count()).toBe(before);
  const { conversations } = await makeClient(heed.url, again.visitorToken).conversation.list.query();
  expect(conversations.map((c) => c.id)).toEqual([conversation.id]);
});

test('resuming from another time zone (the visitor travelled) updates the stored zone', async () => {
  const first = await anonymous().session.start.mutate({ siteKey: heed.siteKey, timeZone: 'Europe/Paris' });
  const moved = await anonymous().session.start.mutate({
    siteKey: heed.siteKey,
    visitorToken: first.visitorToken,
    timeZone: 'America/New_York',
  });
  expect(moved).toMatchObject({ visitorId: first.visitorId, resumed: true, timeZone: 'America/New_York' });
  expect((await storedVisitor(first.visitorId)).timeZone).toBe('America/New_York');
});

test('resuming without a time zone keeps the stored one', async () => {
  const first = await anonymous().session.start.mutate({ siteKey: heed.siteKey, timeZone: 'Asia/Kathmandu' });
  const again = await anonymous().session.start.mutate({ siteKey: heed.siteKey, visitorToken: first.visitorToken });
  expect(again).toMatchObject({ visitorId: first.visitorId, resumed: true, timeZone: 'Asia/Kathmandu' });
  expect((await storedVisitor(first.visitorId)).timeZone).toBe('Asia/Kathmandu');
});

test('a token for a visitor that no longer exists starts a fresh visitor instead of failing', async () => {
  const first = await anonymous().session.start.mutate({ siteKey: heed.siteKey, timeZone: 'Europe/Paris' });
  await heed.services.db.visitor.delete({ where: { id: first.visitorId } });
  const fresh = await anonymous().session.start.mutate({
    siteKey: heed.siteKey,
    visitorToken: first.visitorToken,
    timeZone: 'Europe/Paris',
  });
  expect(fresh.resumed).toBe(false);
  expect(fresh.visitorId).not.toBe(first.visitorId);
  expect(await storedVisitor(fresh.visitorId)).toMatchObject({ timeZone: 'Europe/Paris' });
});
