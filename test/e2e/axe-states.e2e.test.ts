import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { axeViolations } from '../support/browser.ts';
import { startHostSite, widgetTag } from '../support/host-site.ts';

/**
 * Axe (every impact) on the widget states the other accessibility journeys do not reach, in
 * production mode with the host page on another origin: a question with choices (input
 * needed), a failed reply with Retry, the phone layout with its drawer open, and the Arabic
 * widget. Needs `npm run build:widget`.
 */
const site = DemoSite.use();

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Chat' });

test('a question with choices, and a failed reply with Retry: no axe violation', async () => {
  const page = await site.open();
  site.heed.model.script({
    toolCalls: [{ name: 'request_user_input', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } }],
  });
  await site.send(page, 'I want the Ridge 40');
  await dialog(page).getByRole('button', { name: 'Red' }).waitFor();
  expect(await axeViolations(page)).toEqual([]);

  site.heed.model.script({ error: { status: 400 } });
  await site.send(page, 'Actually, neither');
  await dialog(page).getByRole('button', { name: 'Retry' }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await page.close();
});

test('the phone layout with the conversation drawer open, and the Arabic widget: no axe violation', async () => {
  const phone = await site.open({ width: 375, height: 740 });
  site.heed.model.script({ text: 'Hello!' });
  await site.send(phone, 'Hi');
  await dialog(phone).getByText('Hello!').waitFor();
  await phone.getByRole('button', { name: 'Show conversations' }).click();
  await phone.getByRole('button', { name: 'New conversation' }).waitFor();
  expect(await axeViolations(phone)).toEqual([]);
  await phone.close();

  const host = await startHostSite({
    '/': `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>متجر</title></head><body><main><h1>متجر</h1></main>${widgetTag(site.heed.url, { locale: 'ar' })}</body></html>`,
  });
  const arabic = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  arabic.setDefaultTimeout(30_000);
  await arabic.goto(host.url);
  await arabic.locator('heed-launcher button').click();
  await arabic.locator('heed-composer textarea').waitFor();
  site.heed.model.script({ text: 'مرحبا!' });
  await arabic.locator('heed-composer textarea').fill('أين طلبي؟');
  await arabic.locator('heed-composer textarea').press('Enter');
  await arabic.locator('heed-message-list .message.assistant', { hasText: 'مرحبا!' }).waitFor();
  expect(await axeViolations(arabic)).toEqual([]);
  await arabic.close();
  await host.close();
});
