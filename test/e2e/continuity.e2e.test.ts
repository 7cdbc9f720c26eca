import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { promptMessages } from '../support/conversation-text.ts';
import { signedInOperator } from '../support/console.ts';

/**
 * A returning visitor continues their thread, on a third-party page in production mode: a
 * new tab lands in the previous conversation and a follow-up reaches the model with the
 * first message in its history; an identified customer on a second device (375 px) lands
 * in the same conversation; from the home view "Continue" opens the latest conversation
 * and a new one is an explicit choice. A failed reply that a retry answered gives way to
 * the answer in the widget and the console, live and after a reload. A page on an origin
 * the site does not allow says chat is unavailable, keeps what the visitor typed and
 * throws nothing into the host page. Needs `npm run build:widget && npm run build:console`.
 */
const site = DemoSite.use();
const SECRET = 'continuity-identity-secret-0a1b2c3d4e5f';
const FIRST = 'My order #1234 has not arrived';
const FOLLOW_UP = 'Any update on my order?';
const PARCEL = 'Where is parcel #5678?';

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await site.configure({ allowedOrigins: [], identitySecrets: [] });
});

/** A third-party page with the snippet; `identify` runs before the widget loads (docs/site-owners/identity.md). */
async function hostPage(identity: { userId: string; token: string } | null = null): Promise<HostSite> {
  const js = `window.Heed = window.Heed || function () { (window.Heed.q = window.Heed.q || []).push(arguments); };
${identity ? `Heed('identify', ${JSON.stringify(identity)});` : ''}`;
  const html = `<!doctype html><html lang="en"><head><title>Orders</title><script src="/host.js"></script></head><body><h1>My orders</h1>${widgetTag(site.heed.url)}</body></html>`;
  const host = await startHostSite({ '/': html, '/host.js': js }, { host: 'localhost' });
  hosts.push(host);
  return host;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Chat' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const userBubble = (page: Page, text: string) => page.locator('heed-message-list .message.user', { hasText: text });

/** The accessible name of the element that has focus, through the shadow roots it sits in. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.getAttribute('aria-label') ?? null;
  });

/** Opens the chat from the launcher and sends `text`, then waits for the scripted `reply` to show. */
async function chat(page: Page, text: string, reply: string) {
  site.heed.model.script({ text: reply });
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await dialog(page).getByText(reply).waitFor({ timeout: 15_000 });
}

/** The conversations of the visitor who wrote `content`. */
async function conversationsOfAuthor(content: string) {
  const db = site.heed.services.db;
  const m = await db.message.findFirstOrThrow({ where: { content }, select: { conversation: { select: { visitorId: true } } } });
  return db.conversation.findMany({ where: { visitorId: m.conversation.visitorId }, select: { id: true } });
}

/** The prompt of the model request whose last user turn mentions `text`. */
function promptFor(text: string) {
  const req = site.heed.model.requests.findLast((r) => promptMessages(r).at(-1)?.content.includes(text));
  return req
    ? promptMessages(req)
        .map((m) => m.content)
        .join('\n')
    : null;
}

test('a returning tab lands in the previous conversation, and a follow-up reaches the model with the first message', async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const first = await context.newPage();
  await first.goto(site.heed.shopUrl);
  await first.getByRole('button', { name: 'Open chat' }).click();
  await chat(first, FIRST, 'Sorry to hear that: I have asked the warehouse.');

  // a new tab of the same browser: the visitor token is shared, the per-tab view memory is not
  const later = await context.newPage();
  await later.goto(site.heed.shopUrl);
  await later.getByRole('button', { name: 'Open chat' }).click();
  await userBubble(later, FIRST).waitFor();
  await expect.poll(() => focusedName(later)).toBe('Message');
  expect(await dialog(later).getByText("You're all caught up.").count()).toBe(0);

  site.heed.model.script({ text: 'The warehouse says it ships tomorrow.' });
  await later.keyboard.type(FOLLOW_UP);
  await later.keyboard.press('Enter');
  await dialog(later).getByText('The warehouse says it ships tomorrow.').waitFor({ timeout: 15_000 });
  expect(promptFor(FOLLOW_UP)).toContain(FIRST);
  expect(await conversationsOfAuthor(FIRST)).toHaveLength(1);
  await context.close();
}, 60_000);

test('an identified customer on a second device at 375 px lands in the same conversation', async () => {
  await site.configure({ identitySecrets: [SECRET] });
  const userId = `user-${randomUUID()}`;
  const token = await new SignJWT({ sub: userId })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(SECRET));
  const host = await hostPage({ userId, token });

  const laptop = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const onLaptop = await laptop.newPage();
  await onLaptop.goto(host.url);
  await onLaptop.getByRole('button', { name: 'Open chat' }).click();
  await chat(onLaptop, FIRST, 'Sorry to hear that: I have asked the warehouse.');
  await laptop.close();

  const phone = await site.browser.newContext({ viewport: { width: 375, height: 812 } });
  const onPhone = await phone.newPage();
  const pageErrors: string[] = [];
  onPhone.on('pageerror', (err) => pageErrors.push(err.message));
  await onPhone.goto(host.url);
  await onPhone.getByRole('button', { name: 'Open chat' }).click();
  // the thread itself, not a home view with the thread behind the drawer
  await userBubble(onPhone, FIRST).waitFor();
  expect(await userBubble(onPhone, FIRST).isVisible()).toBe(true);
  await expect.poll(() => focusedName(onPhone)).toBe('Message');

  site.heed.model.script({ text: 'It ships tomorrow.' });
  await composer(onPhone).fill(FOLLOW_UP);
  await composer(onPhone).press('Enter');
  await dialog(onPhone).getByText('It ships tomorrow.').waitFor({ timeout: 15_000 });
  expect(promptFor(FOLLOW_UP)).toContain(FIRST);
  const visitors = await site.heed.services.db.visitor.findMany({
    where: { externalId: userId },
    select: { _count: { select: { conversations: true } } },
  });
  expect(visitors.map((v) => v._count.conversations)).toEqual([1]);
  expect(pageErrors).toEqual([]);
  await phone.close();
}, 60_000);

test('from home, Continue opens the latest conversation, a send goes into it, and a new conversation is explicit', async () => {
  const page = await site.open();
  await chat(page, 'Do you ship to Oslo?', 'Yes, in three days.');
  await dialog(page).getByRole('button', { name: 'Home' }).click();
  const home = page.locator('heed-inbox');
  await home.getByText('Latest conversation').waitFor();

  // going home was on purpose: a reload keeps the home view in this tab
  await page.reload();
  await home.getByRole('button', { name: 'Continue' }).waitFor();
  expect(await userBubble(page, 'Do you ship to Oslo?').count()).toBe(0);

  // a message from home continues the latest conversation, with its history shown
  site.heed.model.script({ text: 'Bergen too, in two days.' });
  await composer(page).fill('And to Bergen?');
  await composer(page).press('Enter');
  await dialog(page).getByText('Bergen too, in two days.').waitFor({ timeout: 15_000 });
  await userBubble(page, 'Do you ship to Oslo?').waitFor();
  expect(await conversationsOfAuthor('Do you ship to Oslo?')).toHaveLength(1);
  expect(promptFor('And to Bergen?')).toContain('Do you ship to Oslo?');

  await dialog(page).getByRole('button', { name: 'Home' }).click();
  await home.getByRole('button', { name: 'Continue' }).click();
  await userBubble(page, 'And to Bergen?').waitFor();

  await dialog(page).getByRole('button', { name: 'Home' }).click();
  await home.getByRole('button', { name: 'New conversation' }).click();
  await expect.poll(async () => (await conversationsOfAuthor('Do you ship to Oslo?')).length).toBe(2);
  await expect.poll(() => userBubble(page, 'Do you ship to Oslo?').count()).toBe(0);
  await expect.poll(() => focusedName(page)).toBe('Message');
  await page.context().close();
}, 60_000);

test('a failed reply retried successfully gives way to the answer in the widget and the console, live and after a reload', async () => {
  const visitor = await site.open();
  site.heed.model.script({ error: { status: 400 } });
  await composer(visitor).fill(PARCEL);
  await composer(visitor).press('Enter');
  const retry = dialog(visitor).locator('heed-message-list').getByRole('button', { name: 'Retry' });
  await retry.waitFor({ timeout: 15_000 });
  const [conversation] = await conversationsOfAuthor(PARCEL);

  // the console's transcript of that conversation, open while the failure is fresh
  const operator = await signedInOperator(site.heed.services, site.heed.url);
  const consoleContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, value] = operator.cookie.split('=') as [string, string];
  await consoleContext.addCookies([{ name, value, url: site.heed.url }]);
  const transcript = await consoleContext.newPage();
  await transcript.goto(`${site.heed.url}/admin/#/conversations/${conversation!.id}`);
  const failure = transcript.locator('heed-console-transcript li.message[data-failed="true"][data-role="assistant"]');
  await failure.waitFor();
  expect(await failure.getAttribute('data-superseded')).toBeNull();

  site.heed.model.script({ text: 'Found it: parcel #5678 left the depot today.' });
  await retry.click();
  await dialog(visitor).getByText('Found it: parcel #5678 left the depot today.').waitFor({ timeout: 15_000 });
  const failedReplies = dialog(visitor).locator('heed-message-list .message.failed');
  await expect.poll(() => failedReplies.count()).toBe(0);
  expect(await retry.count()).toBe(0);
  // live in the console too: the failure is marked superseded and no Retry is left
  await expect.poll(() => failure.getAttribute('data-superseded'), { timeout: 10_000 }).toBe('true');
  // (the list beside it shows the reply as its excerpt too)
  await transcript.locator('heed-console-transcript').getByText('Found it: parcel #5678 left the depot today.').waitFor();
  expect(await transcript.getByRole('button', { name: 'Retry' }).count()).toBe(0);

  await visitor.reload();
  await dialog(visitor).getByText('Found it: parcel #5678 left the depot today.').waitFor();
  expect(await failedReplies.count()).toBe(0);
  expect(await dialog(visitor).getByRole('button', { name: 'Retry' }).count()).toBe(0);
  await transcript.reload();
  await failure.waitFor();
  expect(await failure.getAttribute('data-superseded')).toBe('true');
  expect(await transcript.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  await consoleContext.close();
  await visitor.context().close();
}, 60_000);

test('on a refused origin the panel says chat is unavailable, the typed text stays, and nothing throws on the page', async () => {
  await site.configure({ allowedOrigins: ['https://shop.example'] });
  const host = await hostPage();
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const calls: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()));
  page.on('request', (req) => req.url().includes('/trpc/') && calls.push(new URL(req.url()).pathname));
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  await dialog(page).getByText('Chat is unavailable on this page right now.').waitFor();
  expect(await dialog(page).locator('heed-heading').getByRole('status').textContent()).toBe('Unavailable');

  await composer(page).fill(FIRST);
  await composer(page).press('Enter');
  await composer(page).press('Enter');
  expect(await composer(page).inputValue()).toBe(FIRST);
  expect(pageErrors).toEqual([]);
  expect(calls.filter((path) => path.includes('message.send') || path.includes('conversation.create'))).toEqual([]);
  const heedErrors = consoleErrors.filter((e) => e.startsWith('[heed]'));
  expect(heedErrors).toHaveLength(1);
  expect(heedErrors[0]).toContain('origin_not_allowed');
  // besides it, only the browser's own line for the one refused request: the visitor's start
  expect(consoleErrors.filter((e) => !e.startsWith('[heed]'))).toEqual([
    'Failed to load resource: the server responded with a status of 403 (Forbidden)',
  ]);
  await page.close();
}, 60_000);
