import { expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import { seriousA11yViolations } from '../support/browser.ts';

/** Keyboard-only use, the phone layout and the inline page, as a visitor meets them. */
const site = DemoSite.use();

test('keyboard only: open the chat, send with Enter, new line with Shift+Enter, close with Escape', async () => {
  const page = await site.page();
  const launcher = page.getByRole('button', { name: 'Open chat' });
  await launcher.focus();
  await page.keyboard.press('Enter');
  // focus lands in the composer, a textbox named "Message"
  const box = page.getByRole('textbox', { name: 'Message' });
  await expect.poll(() => box.evaluate((el) => el.matches(':focus'))).toBe(true);
  site.heed.model.script({ text: 'Two lines received.' });
  await page.keyboard.type('first line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  expect(await box.inputValue()).toBe('first line\nsecond line');
  await page.keyboard.press('Enter');
  await page.getByText('Two lines received.').waitFor();
  expect(site.heed.model.requests.at(-1)!.body.messages!.at(-1)!.content).toBe('first line\nsecond line');

  // named controls a screen reader announces (the compact panel keeps the list behind ☰)
  await page.getByRole('button', { name: 'Show conversations' }).press('Enter');
  await page.getByRole('button', { name: 'New conversation' }).waitFor();
  await page.getByRole('button', { name: 'Send' }).waitFor();
  await page.getByRole('list', { name: 'Conversations' }).waitFor();
  const liveRegions = await page.evaluate(() => {
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) =>
      root.querySelectorAll('*').forEach((el) => (el.hasAttribute('aria-live') && all.push(el), el.shadowRoot && walk(el.shadowRoot)));
    walk(document);
    return all.length;
  });
  expect(liveRegions).toBe(1);

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName.toLowerCase())).toBe('heed-widget');
  await page.close();
});

test('under 640 px the panel is full screen and the conversations are a drawer', async () => {
  const page = await site.page('/', { width: 390, height: 760 });
  await page.getByRole('button', { name: 'Open chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog.waitFor();
  const box = await dialog.boundingBox();
  expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 760 });
  const newConversation = page.getByRole('button', { name: 'New conversation' });
  expect(await newConversation.isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Show conversations' }).click();
  await newConversation.waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.close();
});

test('the inline variant fills its host container, with no launcher', async () => {
  const page = await site.page('/inline', { width: 1100, height: 700 });
  const region = page.getByRole('region', { name: 'Chat' });
  await region.waitFor();
  expect(await page.getByRole('button', { name: 'Open chat' }).count()).toBe(0);
  const container = await page.locator('#heed-chat').boundingBox();
  const panel = await region.boundingBox();
  expect(Math.round(panel!.width)).toBe(Math.round(container!.width));
  site.heed.model.script({ text: 'Inline hello.' });
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('Hi inline');
  await message.press('Enter');
  await page.getByText('Inline hello.').waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.close();
});
