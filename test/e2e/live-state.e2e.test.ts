import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';

/**
 * Live state and the open conversation as the visitor meets them on the demo's pages: a
 * conversation is live from the moment of sending (the row, the badge, the banner), the live
 * banner shows with no thread open on the inline page, and the inline page's document title
 * follows the open conversation while the shop's (launcher mode) stays the shop's.
 */
const site = DemoSite.use();

const PAGE_TITLE = 'Help centre · Trailhead Outfitters';
/** the live colour's default, #047857 */
const EMERALD = 'rgb(4, 120, 87)';
const row = (page: Page, title: string) => page.locator('heed-conversation-row').filter({ hasText: title }).locator('[part="row"]');
const banner = (page: Page) => page.locator('heed-live-banner [part="banner"]');

/** Holds the model's first answer until `release()`: the conversation waits for its reply meanwhile. */
function heldReply(text: string): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  site.heed.model.setResponder(async () => {
    if (!first) return { text: 'Noted.' };
    first = false;
    await gate;
    return { text, chunkSize: 8, chunkDelayMs: 20 };
  });
  return release;
}

test('inline page: live from the send, the row says "Live" in emerald with a ping dot, and the banner shows with no thread open until the reply is in', async () => {
  const page = await site.page('/inline', { width: 1100, height: 700 });
  await page.getByRole('region', { name: 'Chat' }).waitFor();
  const release = heldReply('Parcels to Oslo take two working days.');
  await site.send(page, 'How long does delivery to Oslo take?');
  const thisRow = row(page, 'How long does delivery to Oslo take?');
  await expect.poll(() => thisRow.getAttribute('data-state')).toBe('live');
  const status = thisRow.locator('[part="status"]');
  expect(await status.textContent()).toContain('Live');
  expect(await status.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
  expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe(EMERALD);
  expect(await thisRow.locator('[part="dot"]').evaluate((el) => getComputedStyle(el, '::after').animationName)).toBe('ping');

  // with no thread open (the inbox), the banner still says a reply is on its way
  await page.getByRole('button', { name: 'Home' }).click();
  await banner(page).waitFor();
  expect(await banner(page).textContent()).toBe('1 live chat receiving replies');
  expect(await banner(page).textContent()).not.toMatch(/refresh|reload|interrupt/i);

  release();
  await expect.poll(() => thisRow.getAttribute('data-state'), { timeout: 20_000 }).toBe('unviewed');
  expect(await banner(page).count()).toBe(0);
  expect(await thisRow.locator('[part="status"]').textContent()).toContain('New response');
  await page.close();
});

test('inline page: the document title is the open conversation’s, and the page’s own again when none is open', async () => {
  const page = await site.page('/inline', { width: 1100, height: 700 });
  await page.getByRole('region', { name: 'Chat' }).waitFor();
  expect(await page.title()).toBe(PAGE_TITLE);
  site.heed.model.script({ text: 'Two working days.' });
  await site.send(page, 'Delivery to Oslo');
  await page.getByText('Two working days.').waitFor();
  // the title pass may rename the conversation: the document title follows the heading
  const heading = page.locator('heed-heading h2[part=title]');
  const titles = async () => ({ document: await page.title(), expected: `${(await heading.textContent())?.trim()} · ${PAGE_TITLE}` });
  await expect.poll(titles, { timeout: 15_000 }).toSatisfy((t: { document: string; expected: string }) => t.document === t.expected);
  expect(await page.title()).not.toBe(PAGE_TITLE);

  await page.getByRole('button', { name: 'Home' }).click();
  await expect.poll(() => page.title()).toBe(PAGE_TITLE);
  await page.close();
});

test('launcher mode leaves the host page’s title alone while a conversation is open', async () => {
  const page = await site.open();
  const before = await page.title();
  site.heed.model.script({ text: 'Happy to help.' });
  await site.send(page, 'Delivery to Bergen');
  await page.getByText('Happy to help.').waitFor();
  expect(await page.title()).toBe(before);
  await page.close();
});
