import { afterEach, expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { signedInOperator } from '../support/console.ts';
import { Prisma } from '../../api/src/db/client.ts';

/**
 * The site's branding as set in the console (here written to the `Site` row, as the
 * console does): the assistant's name, the greeting, the accent colour and the launcher's
 * side reach a visitor on the site's own page, cross-origin, in production.
 */
const site = DemoSite.use({ DEBOUNCE_MS: '200' });

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await site.configure({ assistantName: null, greeting: null, accentColor: null, launcherPosition: 'bottom_right' });
});

const GREETING = 'Hi, I am Mia from the Demo Shop. Ask me about sizes, delivery or returns.';

const launcherBox = (page: import('playwright-core').Page) =>
  page.getByRole('button', { name: 'Open chat' }).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, background: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color };
  });

test("a visitor meets the site's assistant: its name heads the panel, its greeting opens the thread, its colour and side dress the launcher; the greeting never reaches the model", async () => {
  await site.configure({ assistantName: 'Mia', greeting: GREETING, accentColor: '#ffd400', launcherPosition: 'bottom_left' });
  const page = await site.page('/', { width: 1280, height: 800 });

  // the launcher takes the site's accent (a pale yellow gets dark icons) and moves to the left corner
  await expect.poll(() => launcherBox(page)).toMatchObject({ background: 'rgb(255, 212, 0)', color: 'rgb(31, 35, 40)' });
  const box = await launcherBox(page);
  expect(box.left).toBeLessThan(100);

  await page.getByRole('button', { name: 'Open chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog.getByText(GREETING).waitFor();
  await dialog.getByRole('heading', { name: 'Mia', exact: true }).waitFor();

  site.heed.model.script({ text: 'Our sizes run true to fit.' });
  await site.send(page, 'Do your shoes run small?');
  await dialog.getByText('Our sizes run true to fit.').waitFor({ timeout: 15_000 });
  // the greeting stays the thread's first message, and it was never sent as anybody's words
  const texts = await dialog
    .locator('heed-message-list')
    .evaluate((el) => [...(el.shadowRoot?.querySelectorAll('.message') ?? [])].map((m) => m.textContent?.trim() ?? ''));
  expect(texts[0]).toContain(GREETING);
  expect(texts.at(-1)).toContain('Our sizes run true to fit.');
  expect(site.heed.model.requests).toHaveLength(1);
  expect(JSON.stringify(site.heed.model.requests[0]?.body)).not.toContain('Ask me about sizes');
  const stored = await site.heed.services.db.message.count({ where: { content: { contains: 'Ask me about sizes' } } });
  expect(stored).toBe(0);
  await page.close();
});

test("a host page that themes Heed keeps its own accent, and data-position keeps its side, over the site's settings", async () => {
  await site.configure({ accentColor: '#ffd400', launcherPosition: 'bottom_left' });
  const host = await startHostSite({
    '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Themed</title><link rel="stylesheet" href="/theme.css"></head>
<body><h1>Themed host</h1>${widgetTag(site.heed.url, { position: 'bottom-right' })}</body></html>`,
    '/theme.css': { body: 'heed-widget { --heed-accent: #6d28d9; --heed-accent-contrast: #ffffff; }', type: 'text/css' },
  });
  hosts.push(host);
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  // wait for the session (the site's branding has arrived once the site accent property is set)
  await expect
    .poll(() => page.locator('heed-widget').evaluate((el) => (el as HTMLElement).style.getPropertyValue('--_site-accent')))
    .toBe('#ffd400');
  const box = await launcherBox(page);
  expect(box.background).toBe('rgb(109, 40, 217)');
  expect(box.right).toBeGreaterThan(1180);
  await page.close();
});

test('a visitor reads the greeting in their language when the site wrote one, and the greeting as written otherwise', async () => {
  const owner = await signedInOperator(site.heed.services, site.heed.url, { role: 'owner' });
  const demo = await site.heed.services.db.site.findFirstOrThrow({ where: { key: 'demo' }, select: { id: true } });
  // set from the console, as an owner does: "Greeting in other languages"
  await owner.api.console.sites.update.mutate({
    siteId: demo.id,
    greeting: GREETING,
    greetings: { de: 'Hallo, ich bin Mia vom Demo-Shop. Fragen Sie mich nach Größen, Lieferung oder Rückgabe.' },
  });
  for (const [locale, expected] of [
    ['de', 'Hallo, ich bin Mia vom Demo-Shop. Fragen Sie mich nach Größen, Lieferung oder Rückgabe.'],
    ['fr', GREETING],
  ] as const) {
    const host = await startHostSite({
      '/': `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1></main>${widgetTag(site.heed.url, { locale })}</body></html>`,
    });
    hosts.push(host);
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.locator('heed-launcher button').click();
    await page.locator('heed-message-list .greeting', { hasText: expected }).waitFor();
    await page.close();
  }
  await site.configure({ greetings: Prisma.DbNull });
});
