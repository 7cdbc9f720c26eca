import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';

/**
 * The visitor profile's facts as a real browser reports them, the way a customer runs Heed
 * (`NODE_ENV=production`, the built widget, the shop on another origin under a strict CSP):
 * a search page on a third origin sends the visitor to the shop, whose single-page app moves
 * to another page with `history.pushState` and a new title. The operator's profile of the
 * visitor's conversation shows the referrer, the browser, the language and the page the
 * visitor is on now, following the push. Needs `npm run build:widget` (`npm test` does it).
 */
const site = DemoSite.use();

let shop: HostSite;
let search: HostSite;
let owner: TestOperator;
let visitor: Page;
const failures: string[] = [];

beforeAll(async () => {
  shop = await startHostSite(
    {
      '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title><script src="/app.js" defer></script></head>
        <body><h1>Boots</h1><button type="button" id="pricing">See pricing</button>${widgetTag(site.heed.url)}</body></html>`,
      // the shop's own router: a push and a new title, no reload (no inline script under its CSP)
      '/app.js': `document.getElementById('pricing').addEventListener('click', function () {
          history.pushState({}, '', '/pricing?plan=pro');
          document.querySelector('h1').textContent = 'Pricing';
          setTimeout(function () { document.title = 'Pricing — Outdoor shop'; }, 50);
        });`,
    },
    {
      host: 'localhost',
      csp: `default-src 'self'; script-src 'self' ${site.heed.url}; connect-src ${site.heed.url}; style-src 'self'; img-src 'self'`,
    },
  );
  search = await startHostSite({
    '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Search</title></head>
      <body><a href="${shop.url}/">Outdoor shop — boots</a></body></html>`,
  });
  await site.heed.services.db.site.update({ where: { key: 'demo' }, data: { allowedOrigins: [shop.url], shareVisitorPages: true } });
  site.heed.services.sites.clear();
  owner = await signedInOperator(site.heed.services, site.heed.url);

  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  visitor = await context.newPage();
  visitor.setDefaultTimeout(15_000);
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
});

afterAll(async () => {
  await visitor?.context().close();
  await shop?.close();
  await search?.close();
});

test('the operator sees where the visitor came from, their browser and the page they moved to with pushState', async () => {
  await visitor.goto(search.url);
  await visitor.getByRole('link', { name: /Outdoor shop/ }).click();
  await visitor.getByRole('heading', { name: 'Boots' }).waitFor();

  // the visitor writes, so there is a conversation beside which an operator looks
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  const box = visitor.getByRole('dialog', { name: 'Chat' }).getByRole('textbox', { name: 'Message' });
  await box.fill('Do you have these boots in 42?');
  await box.press('Enter');
  const db = site.heed.services.db;
  const conversation = await site.heed.until('the visitor’s message', () =>
    db.conversation.findFirst({ where: { site: { key: 'demo' }, messages: { some: { role: 'user' } } }, select: { id: true } }),
  );
  const profile = () => owner.api.console.visitors.profile.query({ conversationId: conversation.id });

  await site.heed.until('the shop’s first page in the profile', async () => (await profile()).page?.title === 'Outdoor shop');
  const first = await profile();
  expect(first.page).toEqual({ url: `${shop.url}/`, title: 'Outdoor shop' });
  // the browser's referrer policy sends another site only the origin
  expect(first.referrer).toBe(`${search.url}/`);
  expect(first.browser).toMatch(/^(Headless )?Chrome \d+ on Linux$/);
  expect(first.language).toBe('en-GB');

  // the shop's app moves on without a reload; the title comes a moment after the push
  await visitor.getByRole('button', { name: 'See pricing' }).click();
  await visitor.getByRole('heading', { name: 'Pricing' }).waitFor();
  await site.heed.until('the new page in the profile', async () => (await profile()).page?.title === 'Pricing — Outdoor shop');
  expect((await profile()).page).toEqual({ url: `${shop.url}/pricing?plan=pro`, title: 'Pricing — Outdoor shop' });
  expect(failures).toEqual([]);
});
