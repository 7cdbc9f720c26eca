import { afterEach, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, startWidgetCdn, widgetTag, type HostSite } from '../support/host-site.ts';
import { gate } from '../support/gate.ts';

/**
 * Heed where customers use it: a script tag on somebody else's site. Every page here is
 * served from another origin than the API (and, for the first journey, another host
 * name: `localhost` against the API's `127.0.0.1`), the stack runs with
 * `NODE_ENV=production`, and the widget is the built bundle as the server sends it.
 */
const site = DemoSite.use({ DEBOUNCE_MS: '300' });

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** The host page's own script: the host-API snippet of docs/site-owners/host-page-api.md, recording every count it is told. */
const HOST_JS = `
window.Heed = window.Heed || function () { (window.Heed.q = window.Heed.q || []).push(arguments); };
window.seenCounts = [];
Heed('on', 'unread', (counts) => {
  window.seenCounts.push(counts);
  document.getElementById('count').textContent = String(counts.unread + counts.live + counts.inputNeeded);
});
`;

/** A plain third-party page: its own script, a count in its header, `<heed-unread-badge>`, and `tag`. */
const hostPage = (tag: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Someone else's shop</title><script src="/host.js"></script></head>
<body><header>Messages: <output id="count">0</output> <heed-unread-badge></heed-unread-badge></header>
<main><h1>Another site</h1></main>
${tag}
</body></html>`;

async function visit(url: string, opts: { withoutSetHTML?: boolean } = {}): Promise<{ page: Page; failed: string[] }> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const failed: string[] = [];
  page.on('pageerror', (err) => failed.push(`pageerror ${err.message}`));
  page.on('console', (msg) => msg.type() === 'error' && failed.push(`console ${msg.text()}`));
  page.on('response', (res) => res.status() >= 400 && failed.push(`${res.status()} ${res.url()}`));
  await recordCspViolations(page);
  // a browser without the platform HTML Sanitizer: the DOMPurify chunk must load from Heed's origin too
  if (opts.withoutSetHTML) await page.addInitScript(() => delete (Element.prototype as { setHTML?: unknown }).setHTML);
  await page.goto(url);
  return { page, failed };
}

const seenCounts = (page: Page) =>
  page.evaluate(() => (window as unknown as { seenCounts: { unread: number; live: number; inputNeeded: number }[] }).seenCounts);

test("the site owners' snippet on a third-party page: launcher, a send, the whole streamed reply, a reload mid-reply, and the host page told of unread replies", async () => {
  const host = await startHostSite({ '/': hostPage(widgetTag(site.heed.url)), '/host.js': HOST_JS }, { host: 'localhost' });
  hosts.push(host);
  expect(new URL(host.url).origin).not.toBe(new URL(site.heed.url).origin);
  const { page, failed } = await visit(host.url);

  await page.getByRole('button', { name: 'Open chat' }).click();
  const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  const closed = gate();
  site.heed.model.script({ text, chunkSize: 6, chunkDelayMs: 60 }, { text: 'A reply while you were away.', until: closed.opened });
  await site.send(page, 'Hello from another site');
  await page.getByText('word3', { exact: false }).waitFor();
  // the host page heard that a reply is live
  await expect.poll(async () => (await seenCounts(page)).some((c) => c.live === 1), { timeout: 10_000 }).toBe(true);

  await page.reload();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog.getByText(text, { exact: true }).waitFor({ timeout: 20_000 });
  expect(site.heed.model.requests).toHaveLength(1);

  // a reply that arrives with the panel closed is unread: the host's listener, its count and the badge show it
  await site.send(page, 'Tell me later');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  closed.open();
  await expect.poll(async () => (await seenCounts(page)).at(-1), { timeout: 15_000 }).toEqual({ unread: 1, live: 0, inputNeeded: 0 });
  expect(await page.locator('#count').textContent()).toBe('1');
  await expect.poll(() => page.locator('heed-unread-badge').evaluate((el) => el.shadowRoot?.textContent ?? '')).toContain('1');

  // the token is kept in the host page's own storage, under the API it belongs to
  expect(await page.evaluate((key) => localStorage.getItem(key), site.storageKey('visitor'))).toBeTruthy();
  expect(failed).toEqual([]);
  await page.close();
});

test('when the server drops every connection mid-reply, the widget reconnects by itself with a new ticket and shows the whole reply once', async () => {
  const host = await startHostSite({ '/': hostPage(widgetTag(site.heed.url)), '/host.js': HOST_JS });
  hosts.push(host);
  const { page, failed } = await visit(host.url);
  const tickets: string[] = [];
  page.on(
    'request',
    (req) => req.url().includes('/trpc/events.subscribe') && tickets.push(new URL(req.url()).searchParams.get('connectionParams') ?? ''),
  );
  await page.getByRole('button', { name: 'Open chat' }).click();
  const text = Array.from({ length: 30 }, (_, i) => `chunk${i}`).join(' ');
  site.heed.model.script({ text, chunkSize: 8, chunkDelayMs: 80 });
  await site.send(page, 'Stream through a network blip');
  await page.getByText('chunk2', { exact: false }).waitFor();
  site.heed.server.closeAllConnections();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog.getByText(text, { exact: true }).waitFor({ timeout: 20_000 });
  expect(await dialog.getByText(text, { exact: true }).count()).toBe(1);
  // a new connection, with a ticket of its own (never the visitor token)
  expect(tickets.length).toBeGreaterThanOrEqual(2);
  expect(new Set(tickets).size).toBe(tickets.length);
  const token = await page.evaluate((key) => localStorage.getItem(key), site.storageKey('visitor'));
  expect(tickets.some((t) => t.includes(token!))).toBe(false);
  expect(failed.filter((f) => !f.startsWith('console'))).toEqual([]);
  await page.close();
});

test('a host page with a strict CSP (no inline script or style; scripts and connections only from itself and Heed) runs the widget, sanitizer fallback included', async () => {
  const heedOrigin = new URL(site.heed.url).origin;
  const csp = `default-src 'self'; script-src 'self' ${heedOrigin}; connect-src ${heedOrigin}; style-src 'self'; img-src 'self' ${heedOrigin}`;
  const host = await startHostSite({ '/': hostPage(widgetTag(site.heed.url)), '/host.js': HOST_JS }, { csp });
  hosts.push(host);
  const { page, failed } = await visit(host.url, { withoutSetHTML: true });

  await page.getByRole('button', { name: 'Open chat' }).click();
  site.heed.model.script({ text: 'Answer with **bold** text and a [link](https://example.com/help).' });
  await site.send(page, 'Hi under a CSP');
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  // Markdown rendered through DOMPurify, loaded from Heed's origin
  await dialog.locator('strong', { hasText: 'bold' }).waitFor();
  await dialog.getByRole('link', { name: 'link' }).waitFor();
  expect(await cspViolations(page)).toEqual([]);
  expect(failed).toEqual([]);
  await page.close();
});

test('behind a path prefix on a CDN, with data-api pointing at the API: every chunk comes from the prefix, every call goes to the API', async () => {
  const cdn = await startWidgetCdn('/heed/');
  const api = site.heed.url;
  const tag = widgetTag(api, { api }, `${cdn.url}/heed/widget.js`);
  const host = await startHostSite({ '/': hostPage(tag), '/host.js': HOST_JS });
  hosts.push(cdn, host);
  const { page, failed } = await visit(host.url, { withoutSetHTML: true });
  const apiCalls: string[] = [];
  page.on('request', (req) => req.url().startsWith(api) && apiCalls.push(new URL(req.url()).pathname));

  await page.getByRole('button', { name: 'Open chat' }).click();
  site.heed.model.script({ text: 'Served from **the prefix**.' });
  await site.send(page, 'Hello from a CDN');
  await page.getByRole('dialog', { name: 'Chat' }).locator('strong', { hasText: 'the prefix' }).waitFor();

  // loader, first chunk, panel and sanitizer: all under /heed/ on the CDN
  const chunks = cdn.requests.filter((p) => p.startsWith('/heed/widget-chunks/'));
  expect(cdn.requests).toContain('/heed/widget.js');
  expect(chunks.some((p) => p.includes('/boot-'))).toBe(true);
  expect(chunks.some((p) => p.includes('/panel-'))).toBe(true);
  expect(chunks.some((p) => p.includes('/purify'))).toBe(true);
  // the API served no asset; the host page was asked for nothing of Heed's
  expect(apiCalls.length).toBeGreaterThan(0);
  expect(apiCalls.every((p) => p.startsWith('/trpc/'))).toBe(true);
  expect(host.requests.filter((p) => p !== '/' && p !== '/host.js')).toEqual([]);
  expect(failed).toEqual([]);
  await page.close();
});

test("the API's / and /inline send a visitor to the demo shop on its own origin; the shop embeds the site owners' snippet under a strict CSP", async () => {
  for (const path of ['/', '/inline']) {
    const res = await fetch(`${site.heed.url}${path}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get('location')!);
    expect(target.origin).toBe(site.heed.shopUrl);
    expect(target.pathname).toBe(path);
  }
  const shop = await fetch(`${site.heed.shopUrl}/`);
  const html = await shop.text();
  expect(html).toContain(`<script src="${site.heed.url}/widget.js" data-site="demo"`);
  expect(html).not.toMatch(/<script>/);
  expect(shop.headers.get('content-security-policy')).toContain(`script-src 'self' ${site.heed.url}`);
  // the loader and chunks are fetched with CORS by other origins
  const loader = await fetch(`${site.heed.url}/widget.js`, { headers: { origin: site.heed.shopUrl } });
  expect(loader.headers.get('access-control-allow-origin')).toBe('*');
});
