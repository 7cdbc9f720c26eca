import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { watchConsole } from '../handoff/helpers.ts';
import { rawCall, type RawAnswer } from '../console/raw-call.ts';

/**
 * What the widget tells about the visitor, as the console's visitor profile shows it: the
 * referrer, language and browser on arrival (every site), and the host page as the visitor
 * navigates (only sites whose owner shares visitor pages). Everything through real HTTP, as
 * the widget calls it, and read back the way an operator reads it (`console.visitors.profile`).
 */
let heed: TestHeed;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  owner = await signedInOperator(heed.services, heed.url);
});
afterAll(() => heed?.stop());

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A new site (pages shared or not) with its own counters. */
async function newSite(data: { shareVisitorPages?: boolean; limits?: object } = {}) {
  const key = `pages-${randomUUID().slice(0, 8)}`;
  await heed.services.db.site.create({ data: { key, name: 'Pages site', ...data } });
  return key;
}

/** `session.start` as the widget sends it from a browser (its own User-Agent header). */
async function arrive(siteKey: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const answer = await rawCall(heed.url, 'session.start', 'mutation', { siteKey, ...input }, { 'user-agent': CHROME_MAC, ...headers });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.result!.data as { visitorToken: string; visitorId: string; site: { shareVisitorPages: boolean } };
}

const report = (token: string, input: unknown): Promise<RawAnswer> =>
  rawCall(heed.url, 'visitor.page', 'mutation', input, { authorization: `Bearer ${token}` });

/** A conversation of the visitor and the operator's view of who they are. */
async function profileOf(token: string) {
  const created = await rawCall(heed.url, 'conversation.create', 'mutation', {}, { authorization: `Bearer ${token}` });
  const conversationId = (created.body.result!.data as { id: string }).id;
  return { conversationId, profile: () => owner.api.console.visitors.profile.query({ conversationId }) };
}

const stored = (visitorId: string) =>
  heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitorId }, select: { pageUrl: true, pageTitle: true } });

describe('on arrival', () => {
  test('the referrer, language and browser are stored for every site; a later page load without a referrer keeps it', async () => {
    const key = await newSite();
    const first = await arrive(key, { referrer: 'https://www.search.example/?q=boots', language: 'pt-BR' });
    const { profile } = await profileOf(first.visitorToken);
    expect(await profile()).toMatchObject({
      referrer: 'https://www.search.example/?q=boots',
      language: 'pt-BR',
      browser: 'Chrome 131 on macOS',
      userAgent: CHROME_MAC,
      page: null,
      pagesShared: false,
    });
    // the next page of the same site: the widget sends no referrer (it came from the site itself)
    await arrive(key, { visitorToken: first.visitorToken, language: 'pt-BR' });
    expect(await profile()).toMatchObject({ referrer: 'https://www.search.example/?q=boots', language: 'pt-BR' });
  });

  test('an odd referrer or language is dropped, never failing the session', async () => {
    const key = await newSite();
    for (const odd of [
      { referrer: `https://long.example/${'x'.repeat(2000)}`, language: 'x'.repeat(36) },
      { referrer: 'javascript:alert(1)', language: 'en US' },
      { referrer: 'not a url', language: 42 },
    ]) {
      const { visitorId } = await arrive(key, odd);
      const row = await heed.services.db.visitor.findUniqueOrThrow({
        where: { id: visitorId },
        select: { referrer: true, language: true },
      });
      expect(row).toEqual({ referrer: null, language: null });
    }
  });
});

describe('visitor.page', () => {
  test('a site that does not share visitor pages stores nothing, and the widget is told not to report', async () => {
    const key = await newSite({ shareVisitorPages: false });
    const session = await arrive(key);
    expect(session.site.shareVisitorPages).toBe(false);
    const answer = await report(session.visitorToken, { url: 'https://shop.example/cart', title: 'Your cart' });
    expect(answer.status).toBe(200);
    expect(answer.body.result!.data).toEqual({ stored: false });
    expect(await stored(session.visitorId)).toEqual({ pageUrl: null, pageTitle: null });
  });

  test('a site that shares them stores the page as the visitor navigates, without credentials, and the console is told', async () => {
    const key = await newSite({ shareVisitorPages: true });
    const session = await arrive(key);
    expect(session.site.shareVisitorPages).toBe(true);
    const { conversationId, profile } = await profileOf(session.visitorToken);
    // the conversation was made before the stream opened: its catch-up sends it once, and only a change sends it again
    const live = watchConsole(heed, owner, { lastEventId: '0' });
    const sent = () => live.items.filter((i) => i.id === conversationId).length;
    try {
      await live.until('the catch-up', conversationId, () => true);
      expect(sent()).toBe(1);
      const first = await report(session.visitorToken, {
        url: 'https://ana:secret@shop.example/boots?size=42#reviews',
        title: '  Hiking   boots ',
      });
      expect(first.body.result!.data).toEqual({ stored: true });
      expect((await profile()).page).toEqual({ url: 'https://shop.example/boots?size=42#reviews', title: 'Hiking boots' });
      // the console's stream re-sends the conversation: a profile beside it refreshes without polling
      await heed.until('the console to hear of the new page', () => sent() === 2);

      await report(session.visitorToken, { url: 'https://shop.example/cart', title: '' });
      expect((await profile()).page).toEqual({ url: 'https://shop.example/cart', title: null });
    } finally {
      live.close();
    }
  });

  test('a page report out of bounds is refused with the field that is wrong, and nothing is stored', async () => {
    const key = await newSite({ shareVisitorPages: true });
    const session = await arrive(key);
    const cases: [unknown, string][] = [
      [{ url: `https://shop.example/${'x'.repeat(2000)}`, title: 'Long' }, 'url'],
      [{ url: 'javascript:alert(1)', title: 'Script' }, 'url'],
      [{ url: 'ftp://shop.example/file', title: 'FTP' }, 'url'],
      [{ url: 'shop.example/relative', title: 'Relative' }, 'url'],
      [{ url: 'https://shop.example/\u0000', title: 'NUL' }, 'url'],
      [{ url: 'https://shop.example/', title: 'x'.repeat(301) }, 'title'],
      [{ url: 'https://shop.example/', title: 'Line\nbreak' }, 'title'],
    ];
    for (const [input, field] of cases) {
      const answer = await report(session.visitorToken, input);
      expect(answer.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(answer.body.error!.data.code).toBe('BAD_REQUEST');
      expect(Object.keys(answer.body.error!.data.fieldErrors ?? {})).toEqual([field]);
    }
    expect(await stored(session.visitorId)).toEqual({ pageUrl: null, pageTitle: null });
    // the limits of the columns themselves are accepted
    const url = `https://shop.example/${'p'.repeat(2000 - 'https://shop.example/'.length)}`;
    expect((await report(session.visitorToken, { url, title: 't'.repeat(300) })).status).toBe(200);
    expect(await stored(session.visitorId)).toEqual({ pageUrl: url, pageTitle: 't'.repeat(300) });
  });

  test('reports are rate-limited per visitor: 429 page_report_limit with Retry-After, and no token no report', async () => {
    const key = await newSite({ shareVisitorPages: true, limits: { pageReports: { points: 3, seconds: 600 } } });
    const session = await arrive(key);
    for (let i = 0; i < 3; i++)
      expect((await report(session.visitorToken, { url: `https://shop.example/${i}`, title: `Page ${i}` })).status).toBe(200);
    const over = await report(session.visitorToken, { url: 'https://shop.example/3', title: 'Page 3' });
    expect(over.status).toBe(429);
    expect(over.body.error!.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'page_report_limit' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await stored(session.visitorId)).toEqual({ pageUrl: 'https://shop.example/2', pageTitle: 'Page 2' });
    // another visitor of the same site has their own window
    const other = await arrive(key);
    expect((await report(other.visitorToken, { url: 'https://shop.example/', title: 'Home' })).status).toBe(200);
    expect((await rawCall(heed.url, 'visitor.page', 'mutation', { url: 'https://shop.example/', title: 'x' })).status).toBe(401);
  });
});
