import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { signedInOperator } from '../support/console.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';

/**
 * The console's alerts in real Chromium against the real stack (production mode, the console as
 * built): with the browser's notification permission granted to the console's origin, a
 * visitor's conversation starting to wait for a person raises a browser notification while the
 * operator is on another view, the tab title counts it, the live region says it, and clicking
 * the notification opens the conversation. A visitor writing in the operator's own private
 * conversation raises one that carries none of its words. The Notification API is observed, not
 * replaced: an init script records each one the page constructs and lets the browser make it.
 * Needs `npm run build:widget && npm run build:console` first (`npm test` does both).
 */
const site = DemoSite.use();

declare global {
  interface Window {
    /** what the page constructed, recorded by the init script */
    seenNotifications: { title: string; body: string; note: Notification }[];
  }
}

test('a visitor waiting for a person: a notification in any view, the count in the title; clicking it opens the conversation', async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  const { heed } = site;
  const { db } = heed.services;
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olive Owner' });
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Do you ship hiking boots to Norway?');
  await heed.until('the reply', async () => (await db.message.count({ where: { conversationId, role: 'assistant' } })) === 1);
  const { title, site: shop } = await db.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: { title: true, site: { select: { name: true } } },
  });

  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['notifications'], { origin: heed.url });
  const [name, value] = owner.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: heed.url }]);
  await context.addInitScript(() => {
    const Browser = window.Notification;
    window.seenNotifications = [];
    window.Notification = class extends Browser {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        window.seenNotifications.push({ title, body: options?.body ?? '', note: this });
      }
    };
  });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (err) => failures.push(`pageerror ${err.message}`));
  await recordCspViolations(page);
  const notifications = () => page.evaluate(() => window.seenNotifications.map(({ title, body }) => ({ title, body })));

  // the operator is on the Sites view, not the conversation list
  await page.goto(`${heed.url}/admin/#/sites`);
  await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
  expect(await page.title()).toBe('Sites · Heed console');

  // the conversation starts waiting for a person, as a hand-off makes it (request-handoff.ts), and the
  // console's stream hears of it as of every commit; told again until heard (re-sending a change is harmless,
  // and the page's stream may still be opening)
  await db.conversation.update({ where: { id: conversationId }, data: { waitingSince: new Date(), updatedAt: new Date() } });
  const waiting = { title: 'Visitor waiting for a person', body: `${shop.name} — ${title ?? 'New conversation'}` };
  await expect
    .poll(
      async () => {
        await heed.services.bus.touchConversations([conversationId]);
        return notifications();
      },
      { timeout: 20_000 },
    )
    .toEqual([waiting]);
  await expect.poll(() => page.title()).toBe('(1) Sites · Heed console');
  await page
    .getByRole('status')
    .filter({ hasText: `Visitor waiting for a person: ${waiting.body}` })
    .waitFor();

  // the profile says notifications are on in this browser
  await page.getByRole('link', { name: 'Your profile' }).click();
  await page.getByText('On in this browser.').waitFor();
  expect(await page.getByRole('checkbox', { name: 'Browser notifications' }).isChecked()).toBe(true);
  expect(await page.getByRole('button', { name: 'Turn on browser notifications' }).count()).toBe(0);

  // clicking the notification opens the conversation; it still waits for a person, so it still counts
  await page.evaluate(() => window.seenNotifications[0]!.note.dispatchEvent(new Event('click')));
  await expect.poll(() => new URL(page.url()).hash).toBe(`#/conversations/${conversationId}`);
  await expect.poll(() => page.title()).toMatch(/^\(1\) .* · Transcript · Heed console$/);

  // the conversation becomes Olive's and private; she goes elsewhere; the visitor writes
  await db.conversation.update({ where: { id: conversationId }, data: { assigneeId: owner.id, private: true } });
  await heed.services.bus.touchConversations([conversationId]);
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await visitor.send(conversationId, 'My card number is 4111 1111 1111 1111');
  const written = { title: 'New message from the visitor', body: `${shop.name} — Private conversation` };
  await expect.poll(notifications, { timeout: 20_000 }).toEqual([waiting, written]);
  expect(JSON.stringify(await notifications())).not.toContain('4111');

  expect(failures).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
  await context.close();
});
