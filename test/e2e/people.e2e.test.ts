import { existsSync } from 'node:fs';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { hashPassword } from '../../api/src/operators/password.ts';
import { createApiKey } from '../../api/src/proactive/api-keys.ts';
import { scheduleCheckIns } from '../../api/src/proactive/check-ins.ts';
import type { ScriptedReply } from '../../api/src/model-server/types.ts';
import { seriousA11yViolations } from '../support/browser.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';

/**
 * People and intents in one conversation, in real Chromium, two browser contexts, the way a
 * customer runs Heed (`NODE_ENV=production`, the shop on another origin under a strict CSP):
 * the visitor asks for a person → the console shows "waiting for a person" live → Ana takes
 * over and replies → the visitor's widget shows "Ana joined" and her labelled reply, with the
 * launcher badge and the host page's own count raised while the panel is closed → Ana hands
 * back → the next AI reply is asked with Ana's words as labelled history (so it does not repeat
 * them). Then the host page fires an intent: one labelled message; a second within the budget
 * window yields none. Needs `npm run build:widget && npm run build:console` (`npm test` does both).
 */
const site = DemoSite.use({ DEBOUNCE_MS: '300' });

const EMAIL = 'ana@heed.test';
const PASSWORD = 'a long and known password';
const SITE_NAME = 'Outdoor shop';
/** the shop's customer the visitor signs in as (the host page identifies them), and the shop's identity secret */
const USER_ID = 'customer-42';
const IDENTITY_SECRET = 'people-e2e-identity-secret-0123456789';
const OPERATOR_REPLY = 'Hi, Ana here. For 20 pairs or more we give 15 % off; I have added it to your cart.';

let consoleContext: BrowserContext;
let operator: Page;
let visitor: Page;
let host: HostSite;
const failures: string[] = [];

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  const { db } = site.heed.services;
  const token = await new SignJWT({ sub: USER_ID })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('30m')
    .sign(new TextEncoder().encode(IDENTITY_SECRET));
  await db.operator.create({ data: { email: EMAIL, name: 'Ana', role: 'owner', passwordHash: await hashPassword(PASSWORD) } });
  host = await startHostSite(
    {
      '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title><script src="/host.js"></script></head>
        <body><h1>Boots</h1><p>Unread: <output id="unread">0</output></p>${widgetTag(site.heed.url)}</body></html>`,
      // the host page's own badge, through the queued command API (no inline script under its CSP)
      '/host.js': `window.Heed = window.Heed || function () { (Heed.q = Heed.q || []).push(arguments); };
        Heed('identify', ${JSON.stringify({ userId: USER_ID, token })});
        Heed('on', 'unread', function (c) { document.getElementById('unread').textContent = String(c.unread); });`,
    },
    {
      host: 'localhost',
      csp: `default-src 'self'; script-src 'self' ${site.heed.url}; connect-src ${site.heed.url}; style-src 'self'; img-src 'self'`,
    },
  );
  // the stack's demo site (the snippet's `data-site="demo"`), as its owner set it up in the console
  await db.site.update({
    where: { key: 'demo' },
    data: {
      name: SITE_NAME,
      allowedOrigins: [host.url],
      handoffEnabled: true,
      identitySecrets: [IDENTITY_SECRET],
      intentRules: { create: { name: 'viewed_pricing', label: 'viewed Pricing', instruction: 'Offer to help choose between the plans.' } },
    },
  });

  consoleContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  operator = await consoleContext.newPage();
  operator.setDefaultTimeout(15_000);
  operator.on('pageerror', (err) => failures.push(`console pageerror ${err.message}`));
  operator.on('console', (msg) => msg.type() === 'error' && failures.push(`console ${msg.text()}`));
  await recordCspViolations(operator);

  const visitorContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  visitor = await visitorContext.newPage();
  visitor.setDefaultTimeout(15_000);
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
  await recordCspViolations(visitor);
});

afterAll(async () => {
  await consoleContext?.close();
  await visitor?.context().close();
  await host?.close();
});

const chat = () => visitor.getByRole('dialog', { name: 'Chat' });
/** What runs are answered with, in order; title checks get a title whenever they come, so they never take a run's answer. */
const runReplies: ScriptedReply[] = [];
const answerRuns = (...replies: ScriptedReply[]) => {
  runReplies.push(...replies);
  site.heed.model.setResponder((req) =>
    req.body.response_format !== undefined
      ? { text: JSON.stringify({ title: 'Bulk order of boots', changed: true }) }
      : (runReplies.shift() ?? { text: 'Noted.' }),
  );
};

/** The model requests of runs, leaving out the background title checks (they ask for a JSON answer). */
const replyRequests = () => site.heed.model.requests.filter((r) => r.body.response_format === undefined);
const launcherBadge = () => visitor.locator('heed-launcher [part="badge"]');

async function expectBadge(badge: Locator, state: string, count: string) {
  await expect.poll(() => badge.getAttribute('data-state'), { timeout: 15_000 }).toBe(state);
  expect(await badge.textContent()).toBe(count);
}

async function send(text: string) {
  const box = chat().getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

test('the visitor asks for a person; Ana takes over from the console, replies, and hands back', async () => {
  // Ana watches the console's list
  await operator.goto(`${site.heed.url}/admin/`);
  await operator.getByRole('textbox', { name: 'Email' }).fill(EMAIL);
  await operator.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await operator.getByRole('button', { name: 'Sign in' }).click();
  await operator.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();

  // the visitor asks; the model hands the conversation to a person and says so
  answerRuns(
    { toolCalls: [{ id: 'call_person', name: 'handoff_to_human', arguments: {} }] },
    { text: 'I have asked a person from the team to join you here.' },
  );
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  await send('Can I talk to a person about a bulk order of boots?');
  await chat().getByText('A person from Outdoor shop will reply here').waitFor({ timeout: 20_000 });
  await chat().getByText('I have asked a person').waitFor();

  // the console shows it waiting for a person, live (no reload)
  const waiting = operator.getByRole('region', { name: /Waiting for a person/ });
  await waiting.getByText('bulk order').first().waitFor();

  // the visitor closes the panel and leaves it closed
  await chat().getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => visitor.locator('#unread').textContent()).toBe('0');

  // Ana takes over and replies
  await waiting.getByText('bulk order').first().click();
  await operator.getByRole('button', { name: 'Take over' }).click();
  await operator.getByRole('textbox', { name: 'Reply' }).fill(OPERATOR_REPLY);
  await operator.getByRole('button', { name: 'Send' }).click();
  await operator.getByText('15 % off').first().waitFor();

  // the visitor's badges move exactly as for an AI reply: launcher and the host page's own count
  await expectBadge(launcherBadge(), 'unviewed', '1');
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('1');

  // opened: "Ana joined", then her reply labelled as hers; the heading says a person is here
  await visitor.getByRole('button', { name: /Open chat/ }).click();
  await chat().getByText('Ana joined').waitFor();
  await chat().getByText('Operator — Ana').first().waitFor();
  await chat().getByText('15 % off').waitFor();
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('0');
  expect(await seriousA11yViolations(visitor)).toEqual([]);

  // while Ana holds it, the visitor's words reach her live and never the model
  const modelCalls = replyRequests().length;
  await send('Perfect, can it ship this week?');
  await operator.getByText('can it ship this week').waitFor();
  await new Promise((r) => setTimeout(r, 1_000)); // past the debounce: still no run
  expect(replyRequests().length).toBe(modelCalls);

  // Ana hands back; the visitor's unanswered message is the next run's pending batch, Ana's words its labelled history
  answerRuns({ text: 'Yes: orders before Thursday ship this week.' });
  await operator.getByRole('button', { name: 'Hand back' }).click();
  await chat().getByText('orders before Thursday').waitFor({ timeout: 20_000 });
  const request = replyRequests().at(-1)!;
  const messages = request.body.messages as unknown as { role: string; content: string | null }[];
  expect(messages.at(-1)).toEqual({ role: 'user', content: 'Perfect, can it ship this week?' });
  expect(messages).toContainEqual({
    role: 'assistant',
    content: `[Ana from the site's team wrote this, not the assistant] ${OPERATOR_REPLY}`,
  });
  expect(messages.filter((m) => m.content?.includes('15 % off'))).toHaveLength(1);

  expect(await cspViolations(operator)).toEqual([]);
  expect(await cspViolations(visitor)).toEqual([]);
  expect(failures.filter((f) => !f.includes('favicon'))).toEqual([]);
}, 120_000);

test('the host page fires an intent: one labelled message; a second within the budget window yields none', async () => {
  answerRuns({ text: 'Comparing plans? I can help you choose between Basic and Pro.' });
  await chat().getByRole('button', { name: 'Close' }).click();
  await visitor.evaluate(() =>
    (window as unknown as { Heed: (...args: unknown[]) => void }).Heed('intent', 'viewed_pricing', { plan: 'pro' }),
  );
  // unread like any reply: the launcher badge and the host page's own count
  await expectBadge(launcherBadge(), 'unviewed', '1');
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('1');
  await visitor.getByRole('button', { name: /Open chat/ }).click();
  const thread = visitor.locator('heed-message-list');
  await thread.getByText('Because you viewed Pricing').waitFor({ timeout: 20_000 });
  await thread.getByText('Comparing plans?').waitFor();
  // the heading's provenance label says why the latest message appeared
  await chat().locator('heed-heading [part=provenance]').getByText('Because you viewed Pricing').waitFor();
  const request = replyRequests().at(-1)!;
  expect(JSON.stringify(request.body.messages)).toContain('viewed_pricing');

  // the same intent again, with no visitor message in between: refused by the budget, counted, no error on the page
  const calls = replyRequests().length;
  await visitor.evaluate(() => (window as unknown as { Heed: (...args: unknown[]) => void }).Heed('intent', 'viewed_pricing'));
  const { db } = site.heed.services;
  await expect
    .poll(() => db.proactiveRefusal.aggregate({ _sum: { count: true } }).then((a) => a._sum.count ?? 0), { timeout: 10_000 })
    .toBe(1);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(await thread.getByText('Because you viewed Pricing').count()).toBe(1);
  expect(replyRequests().length).toBe(calls);
  expect(failures.filter((f) => !f.includes('favicon'))).toEqual([]);
}, 60_000);

test("the site's server sends a message to the signed-in customer: badges rise while the panel is closed, and it is labelled as the site's", async () => {
  const { db } = site.heed.services;
  const { id: siteId } = await db.site.findUniqueOrThrow({ where: { key: 'demo' }, select: { id: true } });
  const { key } = (await createApiKey(db, siteId, 'Shop backend'))!;
  await chat().getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => visitor.locator('#unread').textContent()).toBe('0');

  const answer = await fetch(`${site.heed.url}/api/v1/sites/demo/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: USER_ID, text: 'Your boots shipped today: they arrive on Friday.' }),
  });
  expect(answer.status).toBe(201);
  await expectBadge(launcherBadge(), 'unviewed', '1');
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('1');

  await visitor.getByRole('button', { name: /Open chat/ }).click();
  const thread = visitor.locator('heed-message-list');
  await thread.getByText('From Outdoor shop', { exact: true }).waitFor();
  await thread.getByText('they arrive on Friday').waitFor();
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('0');
  // a user id without a verified session is not found, whatever the key
  const stranger = await fetch(`${site.heed.url}/api/v1/sites/demo/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: 'someone-else', text: 'Hello' }),
  });
  expect(stranger.status).toBe(404);
  expect(failures.filter((f) => !f.includes('favicon'))).toEqual([]);
}, 60_000);

test('after a question left open, the visitor goes silent: one check-in, labelled, raising the badges while the panel is closed', async () => {
  const { db, redis, keys } = site.heed.services;
  await db.site.update({ where: { key: 'demo' }, data: { checkInAfterMinutes: 5, unsolicitedPerDay: 5 } });
  answerRuns({ text: 'Which size do you wear, 42 or 43?' }, { text: 'Still there? Happy to check the sizes for you.' });
  await send('Do the Ridge 40 run small?');
  await chat().getByText('Which size do you wear').waitFor({ timeout: 20_000 });
  await chat().getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => visitor.locator('#unread').textContent()).toBe('0');

  // five silent minutes pass (the reply is made older), and the workers' scheduler looks (it does every 30 s)
  const { id } = await db.conversation.findFirstOrThrow({
    where: { site: { key: 'demo' } },
    orderBy: { lastAssistantAt: 'desc' },
    select: { id: true },
  });
  const past = new Date(Date.now() - 6 * 60_000);
  await db.conversation.update({ where: { id }, data: { lastAssistantAt: past } });
  await db.message.updateMany({
    where: { conversationId: id, role: 'assistant', content: { startsWith: 'Which size' } },
    data: { createdAt: past },
  });
  expect(await scheduleCheckIns(db)).toEqual([id]);
  await redis.publish(keys.scheduleChannel(), id);

  await expectBadge(launcherBadge(), 'unviewed', '1');
  await expect.poll(() => visitor.locator('#unread').textContent(), { timeout: 15_000 }).toBe('1');
  await visitor.getByRole('button', { name: /Open chat/ }).click();
  const thread = visitor.locator('heed-message-list');
  await thread.getByText('Check-in', { exact: true }).waitFor();
  await thread.getByText('Still there?').waitFor();
  // the same silence never gets a second one
  expect(await scheduleCheckIns(db)).toEqual([]);
  expect(failures.filter((f) => !f.includes('favicon'))).toEqual([]);
}, 60_000);
