import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { axeViolations } from '../support/browser.ts';

/**
 * The widget on a customer's page that has landmarks of its own (a <header>, a <main>), in
 * production mode on another origin: no duplicate landmark and no other axe violation (any
 * impact) closed, open, in a thread and after a reply; a text box iOS does not zoom into; Escape
 * from the launcher closes the chat; a title in the other script keeps its own direction.
 */
const site = DemoSite.use();
const hosts: HostSite[] = [];
afterAll(async () => {
  for (const h of hosts) await h.close();
});

const pageWithLandmarks = (tag: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title></head>
<body><header><a href="/">Outdoor shop</a></header><main><h1>Boots</h1><p>Waterproof boots for every trail.</p></main>${tag}</body></html>`;

async function visit(attrs: Record<string, string> = {}): Promise<Page> {
  const host = await startHostSite({ '/': pageWithLandmarks(widgetTag(site.heed.url, attrs)) }, { host: 'localhost' });
  hosts.push(host);
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(30_000);
  await page.goto(host.url);
  return page;
}

test('on a page with its own header and main: no axe violation closed, open, in a thread and after the reply', async () => {
  const page = await visit();
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Open chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  expect(await axeViolations(page)).toEqual([]);

  site.heed.model.script({ text: 'The Ridge 40 is waterproof to 2,000 mm.' });
  await site.send(page, 'Is the Ridge 40 waterproof?');
  await page.getByText('waterproof to 2,000 mm').waitFor();
  expect(await axeViolations(page)).toEqual([]);
  // one banner on the page: the host's own
  expect(await page.getByRole('banner').count()).toBe(1);
  await page.close();
});

test('the text box is at least 16 px (phones zoom into smaller ones), and Escape on the launcher closes the chat', async () => {
  const page = await visit();
  const launcher = page.getByRole('button', { name: 'Open chat' });
  await launcher.click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  expect(Number.parseFloat(await box.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);

  // focus back on the launcher (now "Close chat"), then Escape: closed, focus still on the launcher
  const close = page.getByRole('button', { name: 'Close chat' }).last();
  await close.focus();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  expect(await page.getByRole('dialog', { name: 'Chat' }).count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.tagName.toLowerCase())).toBe('heed-widget');
  await page.close();
});

test('in the Arabic widget an English title keeps its own direction, so it is cut at its end', async () => {
  const page = await visit({ locale: 'ar' });
  await page.locator('heed-widget').waitFor();
  await page.locator('heed-launcher button').click();
  site.heed.model.script({ text: 'Paris, Berlin, Madrid.' });
  const box = page.locator('heed-composer textarea');
  await box.fill('What are the capitals of Europe, one by one, from west to east?');
  await box.press('Enter');
  await page.getByText('Paris, Berlin, Madrid.').waitFor();
  const title = page.locator('heed-heading [part=title]');
  await expect.poll(() => title.textContent()).toMatch(/^What are the capitals/);
  expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
  expect(await page.locator('heed-panel').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await page.close();
});
