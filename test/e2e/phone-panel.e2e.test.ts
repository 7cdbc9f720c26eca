import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';

/**
 * The full-screen chat on a phone (375 × 740), on a long third-party page in production mode:
 * the page does not scroll behind the open chat and scrolls again once it closes, with its own
 * inline styles back as they were; Tab and Shift+Tab go round inside the chat; Escape closes it
 * and focus returns to the launcher. Needs `npm run build:widget`.
 */
const site = DemoSite.use();
const hosts: HostSite[] = [];
afterAll(async () => {
  for (const h of hosts) await h.close();
});

async function longPage(): Promise<Page> {
  const html = `<!doctype html><html lang="en" style="scroll-behavior: auto"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Trail guide</title></head>
<body><main><h1>Trail guide</h1><div style="height: 4000px">A long page.</div></main>${widgetTag(site.heed.url)}</body></html>`;
  const host = await startHostSite({ '/': html }, { host: 'localhost' });
  hosts.push(host);
  const page = await site.browser.newPage({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  page.setDefaultTimeout(30_000);
  await page.goto(host.url);
  return page;
}

/** The name of the element that has focus inside the widget (its label or its text). */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el ? `${el.localName}:${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}` : null;
  });

test('the page stays put behind the open chat and scrolls again after it; Tab stays inside; Escape returns to the launcher', async () => {
  const page = await longPage();
  await page.evaluate(() => window.scrollTo(0, 600));
  await page.getByRole('button', { name: 'Open chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  const before = await page.evaluate(() => window.scrollY);
  await page.mouse.wheel(0, 800);
  await page.keyboard.press('PageDown');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');

  // Tab from the last control (Send) comes back to the first, inside the chat; Shift+Tab goes back round
  await page.getByRole('button', { name: 'Send' }).focus();
  await page.keyboard.press('Tab');
  const first = await focused(page);
  expect(first).toMatch(/^button:/);
  expect(first).not.toBe('button:Send');
  expect(await page.evaluate(() => document.activeElement?.localName)).toBe('heed-widget');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toMatch(/Send/);

  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Chat' }).waitFor({ state: 'hidden' });
  expect(await focused(page)).toMatch(/Open chat/);
  expect(await page.evaluate(() => document.documentElement.getAttribute('style'))).toBe('scroll-behavior: auto;');
  await page.mouse.wheel(0, 800);
  await page.waitForFunction((y) => window.scrollY > y, before);
  await page.close();
});
