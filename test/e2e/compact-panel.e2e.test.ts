import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { axeViolations } from '../support/browser.ts';
import { gate } from '../support/gate.ts';

/**
 * The panel on a wide screen, in production mode with the host page on another origin: compact
 * (about 400 px, the list behind ☰) for a visitor with few conversations, with the list beside
 * the thread once they ask for it (several conversations open with it: panel.test.ts); and a reply that arrives while the chat
 * is closed shows as a short preview beside the launcher, once, dismissible, opening its
 * conversation. Needs `npm run build:widget`.
 */
const site = DemoSite.use();

const panelWidth = async (page: Page) => (await page.locator('heed-panel').boundingBox())!.width;
const preview = (page: Page) => page.locator('heed-widget [part="preview"]');

/** Sends `text` and closes the chat before its reply is let through; answers the reply's release. */
async function replyWhileClosed(page: Page, text: string, reply: string): Promise<() => void> {
  const held = gate();
  site.heed.model.script({ text: reply, until: held.opened });
  await site.send(page, text);
  await page.locator('heed-message-list .message.user:not(.pending)', { hasText: text }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Chat' }).waitFor({ state: 'hidden' });
  return held.open;
}

test('a first-time visitor gets the compact panel; the list widens it on request', async () => {
  const page = await site.open();
  expect(await panelWidth(page)).toBeLessThanOrEqual(402);
  expect(await page.locator('heed-sidebar').isVisible()).toBe(false);
  expect(await axeViolations(page)).toEqual([]);
  await site.showConversations(page);
  expect(await panelWidth(page)).toBeGreaterThan(600);
  // the button that showed the list is gone: focus moved into the list's side, not off the widget
  expect(await page.evaluate(() => document.activeElement?.localName)).toBe('heed-widget');

  await page.close();
});

test('a reply that arrives while the chat is closed shows beside the launcher once; it opens its conversation, or is dismissed', async () => {
  const page = await site.open();
  const release = await replyWhileClosed(page, 'Is the Ridge 40 waterproof?', 'Yes, fully waterproof to 10 m.');
  release();
  await preview(page).getByText('Yes, fully waterproof to 10 m.').waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await preview(page)
    .getByRole('button', { name: /Yes, fully waterproof/ })
    .click();
  await page.locator('heed-message-list .message.assistant', { hasText: 'Yes, fully waterproof to 10 m.' }).waitFor();
  expect(await preview(page).count()).toBe(0);

  const second = await replyWhileClosed(page, 'And the Ridge 50?', 'The Ridge 50 is too.');
  second();
  await preview(page).getByText('The Ridge 50 is too.').waitFor();
  await preview(page).getByRole('button', { name: 'Dismiss' }).click();
  expect(await preview(page).count()).toBe(0);
  // once per reply: a reload does not bring it back
  await page.reload();
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  expect(await preview(page).count()).toBe(0);
  await page.close();
});
