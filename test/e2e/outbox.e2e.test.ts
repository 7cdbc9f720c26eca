import { expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { finalTurn, lastItem } from '../support/conversation-text.ts';
import { storageKey } from '../../widget/src/state/token-storage.ts';

/**
 * Nothing a visitor typed is lost on reload: sends the API has not acknowledged are kept in
 * the page's storage, show again as pending after a reload, and go out exactly once, in
 * order, when the API is reachable again, whichever of the site's tabs delivers them.
 */
const site = DemoSite.use();

/**
 * Cuts the context's sends off from the API (the host page itself still loads) until
 * `restore`; records which page tried to send meanwhile, and the body of every send that
 * reached the API after that.
 */
async function cutSends(context: BrowserContext) {
  let cut = true;
  const delivered: string[] = [];
  const tried = new Set<Page>();
  await context.route('**/trpc/message.send**', (route) => {
    if (cut) {
      tried.add(route.request().frame().page());
      return route.abort('internetdisconnected');
    }
    delivered.push(route.request().postData() ?? '');
    return route.continue();
  });
  return { delivered, tried, restore: () => void (cut = false) };
}

const outboxKey = () => storageKey('outbox', 'demo', `${site.heed.url}/`);
const kept = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').map((s: { content: string }) => s.content), outboxKey());
const userMessages = (page: Page, text: string) => page.locator('.message.user', { hasText: text });

test('sends made while the API is unreachable survive a reload and are delivered once each, in order, and answered', async () => {
  const page = await site.open();
  site.heed.model.setResponder((req) => ({ text: `Answered: ${lastItem(finalTurn(req))}` }));
  const sends = await cutSends(page.context());
  const texts = ['first while cut off', 'second while cut off'];
  for (const text of texts) await site.send(page, text);
  await expect.poll(() => page.locator('[data-pending]').count()).toBe(2);
  expect(await kept(page)).toEqual(texts);

  await page.reload(); // no "leave site?" prompt: the sends are kept (a prompt would block the reload)
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  for (const text of texts) await userMessages(page, text).waitFor();
  expect(await page.locator('[data-pending]').count()).toBe(2);
  expect(await dialog.getByText('Not sent').count()).toBe(0);

  sends.restore();
  const db = site.heed.services.db;
  await site.heed.until(
    'both delivered and answered',
    async () => (await db.message.count({ where: { content: { in: texts }, state: 'answered' } })) === 2,
    30_000,
  );
  const stored = await db.message.findMany({
    where: { role: 'user', content: { in: texts } },
    orderBy: { seq: 'asc' },
    select: { content: true, clientMessageId: true },
  });
  expect(stored.map((m) => m.content)).toEqual(texts); // once each, in the order typed
  expect(new Set(stored.map((m) => m.clientMessageId)).size).toBe(2);
  for (const text of texts) expect(sends.delivered.filter((body) => body.includes(text))).toHaveLength(1);
  const prompts = site.heed.model.requests.map(finalTurn).join('\n');
  expect(prompts.indexOf(texts[0]!)).toBeLessThan(prompts.indexOf(texts[1]!));
  expect(prompts.indexOf(texts[0]!)).toBeGreaterThanOrEqual(0);

  // the page agrees: each shown once, none pending, the storage empty
  await dialog.getByText('Answered: second while cut off').waitFor({ timeout: 20_000 });
  await expect.poll(() => page.locator('[data-pending]').count()).toBe(0);
  for (const text of texts) expect(await userMessages(page, text).count()).toBe(1);
  expect(await page.evaluate((key) => localStorage.getItem(key), outboxKey())).toBeNull();
  await page.close();
}, 90_000);

test('a kept send is delivered once when two tabs of the site are open', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await context.newPage();
  await first.goto(site.heed.shopUrl);
  await first.getByRole('button', { name: 'Open chat' }).click();
  await first.getByRole('textbox', { name: 'Message' }).waitFor();
  const sends = await cutSends(context);
  const text = 'sent from the first tab';
  await site.send(first, text);
  await expect.poll(() => first.locator('[data-pending]').count()).toBe(1);

  // a second tab of the same visitor finds the send in storage (its panel stays closed)
  const second = await context.newPage();
  await second.goto(site.heed.shopUrl);
  await second.getByRole('button', { name: 'Open chat' }).waitFor();
  await expect.poll(() => sends.tried.has(second), { timeout: 10_000 }).toBe(true); // it would deliver it too

  sends.restore();
  const db = site.heed.services.db;
  await site.heed.until(
    'delivered and answered',
    async () => (await db.message.count({ where: { content: text, state: 'answered' } })) === 1,
    30_000,
  );
  await expect.poll(() => first.evaluate((key) => localStorage.getItem(key), outboxKey())).toBeNull();
  // both tabs look again within 5 s of their last failed attempt: give the other one that time
  await new Promise((r) => setTimeout(r, 6_000));
  expect(sends.delivered.filter((body) => body.includes(text))).toHaveLength(1);
  expect(await db.message.count({ where: { content: text } })).toBe(1);
  await expect.poll(() => first.locator('[data-pending]').count()).toBe(0);
  expect(await userMessages(first, text).count()).toBe(1);
  await context.close();
}, 90_000);
