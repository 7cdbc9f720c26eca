import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../api/src/operators/password.ts';
import { seriousA11yViolations } from '../support/browser.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, type HostSite } from '../support/host-site.ts';

/**
 * The operator's journey through the console in real Chromium against the real stack
 * (`NODE_ENV=production`, the console and the widget as built and served): sign in, create a
 * site, copy its snippet onto a third-party page, watch a visitor's conversation arrive live,
 * read its transcript (one batched run), retry a failed reply, and see it on the overview.
 * Needs `npm run build:widget && npm run build:console` first (`npm test` does both).
 */
// the visitor's three quick messages must fall in one debounce even when a CPU-heavy job beside the
// browser stretches the time between them (900 ms split them into two runs there)
const site = DemoSite.use({ DEBOUNCE_MS: '2500' });

const EMAIL = 'owner@heed.test';
const PASSWORD = 'a long and known password';

let consoleContext: BrowserContext;
let operator: Page;
const failures: string[] = [];
let host: HostSite;
/** the third-party page's files: the snippet is pasted in once the console showed it */
const hostFiles: Record<string, string> = {};

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  await site.heed.services.db.operator.create({
    data: { email: EMAIL, name: 'Olive Owner', role: 'owner', passwordHash: await hashPassword(PASSWORD) },
  });
  host = await startHostSite(hostFiles);
  consoleContext = await site.browser.newContext({
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await consoleContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.heed.url });
  operator = await consoleContext.newPage();
  operator.setDefaultTimeout(15_000);
  operator.on('pageerror', (err) => failures.push(`pageerror ${err.message}`));
  operator.on('console', (msg) => msg.type() === 'error' && failures.push(`console ${msg.text()}`));
  await recordCspViolations(operator);
});

afterAll(async () => {
  await consoleContext?.close();
  await host?.close();
});

/** The console's list of conversations and one row in it, by title. */
const list = () => operator.getByRole('list', { name: 'Conversations' });
const rowState = (title: string) =>
  list()
    .getByRole('listitem')
    .filter({ hasText: title })
    .first()
    .locator('heed-conversation-row')
    .evaluate((el) => el.shadowRoot!.querySelector('button')!.dataset.state);

test('the console is its own bundle behind a strict CSP, refuses framing, and caches its hashed chunks for good', async () => {
  const redirect = await fetch(`${site.heed.url}/admin`, { redirect: 'manual' });
  expect(redirect.status).toBe(301);
  expect(redirect.headers.get('location')).toBe('/admin/');

  const page = await fetch(`${site.heed.url}/admin/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('cache-control')).toBe('no-cache');
  const html = await page.text();
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
  const entry = html.match(/src="(\/admin\/assets\/index-[\w-]+\.js)"/)?.[1];
  expect(entry).toBeDefined();

  const chunk = await fetch(`${site.heed.url}${entry}`, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(chunk.status).toBe(200);
  expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(chunk.headers.get('content-encoding')).toBe('br');
  expect((await fetch(`${site.heed.url}${entry}.map`)).status).toBe(404);
  // the widget a host page loads holds nothing of the console
  const widget = await (await fetch(`${site.heed.url}/widget.js`)).text();
  expect(widget).not.toContain('admin/assets');
});

test('sign in, create a site, copy its snippet; a visitor’s three quick messages arrive live and get one batched run', async () => {
  await operator.goto(`${site.heed.url}/admin/`);
  await operator.getByRole('textbox', { name: 'Email' }).fill(EMAIL);
  await operator.getByRole('textbox', { name: 'Password' }).fill('not the password');
  await operator.getByRole('button', { name: 'Sign in' }).click();
  await operator.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
  failures.length = 0; // the refused sign-in's 401 is the one error this page should log
  await operator.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await operator.getByRole('button', { name: 'Sign in' }).click();
  await operator.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
  expect(await operator.title()).toBe('Conversations · Heed console');

  // a site for the third-party page
  await operator.getByRole('link', { name: 'Sites' }).click();
  await operator.getByRole('link', { name: 'New site' }).click();
  await operator.getByRole('textbox', { name: 'Name', exact: true }).fill('Outdoor shop');
  await operator.getByRole('textbox', { name: 'Allowed origins' }).fill(host.url);
  await operator.getByRole('textbox', { name: 'Greeting' }).first().fill('Hi! Ask me about boots.');
  await operator.getByRole('button', { name: 'Create site' }).click();
  await operator.getByRole('button', { name: 'Copy snippet' }).click();
  const snippet = await operator.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toMatch(new RegExp(`^<script src="${site.heed.url}/widget\\.js" data-site="[\\w-]+" async></script>$`));
  hostFiles['/'] =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title></head><body><h1>Boots</h1>${snippet}</body></html>`;

  // the operator watches the list; a visitor writes three quick messages on the shop
  await operator.getByRole('link', { name: 'Conversations' }).click();
  await operator.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
  const visitor = await site.browser.newPage();
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  site.heed.model.script({
    text: 'Green Ridge 40s are in stock, shipping to Oslo is 9 €, and returns are free.',
    chunkSize: 8,
    chunkDelayMs: 120,
  });
  const box = visitor.getByRole('textbox', { name: 'Message' });
  for (const text of ['Do you have the Ridge 40 in green?', 'What does shipping to Oslo cost?', 'And returns?']) {
    await box.fill(text);
    await box.press('Enter');
  }

  // appears without a reload, live while the reply is on its way, then no longer live
  const row = list().getByRole('listitem').filter({ hasText: 'Ridge 40' }).first();
  await row.waitFor({ timeout: 10_000 });
  await expect.poll(() => rowState('Ridge 40'), { timeout: 10_000 }).toBe('live');
  await visitor.getByText('returns are free').waitFor({ timeout: 20_000 });
  // the reply is new to this operator: the row leaves live for unviewed (the operator's own read marker)
  await expect.poll(() => rowState('Ridge 40'), { timeout: 10_000 }).toBe('unviewed');
  expect(site.heed.model.requests).toHaveLength(1);

  // the transcript: the three messages, one run that claimed all three, with tokens and timings
  await row.locator('heed-conversation-row').click();
  await operator.getByRole('heading', { level: 2, name: 'Runs' }).waitFor();
  expect(await operator.title()).toMatch(/ · Transcript · Heed console$/);
  const messages = operator.getByRole('list', { name: 'Messages' }).getByRole('listitem');
  await expect.poll(() => messages.count()).toBe(4);
  const run = operator.getByRole('region', { name: 'Runs table' }).locator('tbody tr');
  expect(await run.count()).toBe(1);
  // cells are read by their column's heading, so a new column moves nothing
  const headings = await operator.getByRole('region', { name: 'Runs table' }).locator('thead th').allTextContents();
  const values = await run.locator('td').allTextContents();
  const cell = (heading: string) => values[headings.indexOf(heading)];
  expect(cell('Status')).toBe('completed');
  expect(cell('Claimed messages')).toBe('3 (#1, #2, #3)');
  expect(cell('Tokens in / out')).toMatch(/^\d+ \/ \d+$/);
  expect(cell('First token')).toMatch(/^\d+(\.\d)? (ms|s)$/);
  expect(cell('Duration')).toMatch(/^\d+(\.\d)? (ms|s)$/);
  expect(cell('Finish')).toBe('stop');
  expect(await messages.first().textContent()).toContain('Visitor');
  expect(await messages.last().textContent()).toContain('AI');

  // opened: read for this operator (not for the visitor), in the list beside it
  await expect.poll(() => rowState('Ridge 40'), { timeout: 10_000 }).toBe('default');

  // a scripted model failure shows as failed; Retry from the console answers it
  site.heed.model.script({ error: { status: 400 } });
  await box.fill('Can I pay by invoice?');
  await box.press('Enter');
  await list().getByRole('listitem').filter({ hasText: 'Ridge 40' }).getByText('Failed', { exact: true }).waitFor({ timeout: 15_000 });
  await row.locator('heed-conversation-row').click();
  site.heed.model.script({ text: 'Yes, invoices are fine for orders over 100 €.' });
  await operator.getByRole('button', { name: 'Retry' }).first().click();
  await visitor.getByText('Yes, invoices are fine').waitFor({ timeout: 15_000 });
  await operator.locator('heed-console-transcript').getByText('Yes, invoices are fine').waitFor({ timeout: 15_000 });
  await visitor.close();

  expect(await cspViolations(operator)).toEqual([]);
  expect(failures.filter((f) => !f.includes('favicon'))).toEqual([]);
}, 120_000);

test('the overview charts the replies; its views have no serious accessibility violations and fit 375 px', async () => {
  await operator.getByRole('link', { name: 'Overview' }).click();
  const activity = operator.locator('heed-overview-chart[data-chart="activity"]');
  await activity.locator('canvas').waitFor();
  expect(await operator.title()).toBe('Overview · Heed console');
  const replies = Number(await operator.locator('heed-console-overview dd[data-total="replies"]').textContent());
  expect(replies).toBeGreaterThanOrEqual(2);
  await activity.getByText('Show data').click();
  const rows = await activity.getByRole('region', { name: 'Conversations and replies data' }).locator('tbody tr').allTextContents();
  expect(rows.some((r) => /[1-9]/.test(r))).toBe(true);
  expect(await seriousA11yViolations(operator)).toEqual([]);

  // "Export CSV" downloads the overview's series, and the list's rows from the list
  const [overviewCsv] = await Promise.all([operator.waitForEvent('download'), operator.getByRole('link', { name: 'Export CSV' }).click()]);
  expect(overviewCsv.suggestedFilename()).toMatch(/\.csv$/);
  await operator.getByRole('link', { name: 'Conversations' }).click();
  const [listCsv] = await Promise.all([operator.waitForEvent('download'), operator.getByRole('link', { name: 'Export CSV' }).click()]);
  const rowsCsv = await readFile((await listCsv.path())!, 'utf8');
  expect(rowsCsv).toContain('Ridge 40');

  await operator.setViewportSize({ width: 375, height: 740 });
  for (const view of ['Conversations', 'Sites', 'Overview']) {
    await operator.getByRole('link', { name: view, exact: true }).click();
    await operator.getByRole('heading', { level: 1, name: view }).waitFor();
    const overflow = await operator.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, view).toBeLessThanOrEqual(0);
  }
  expect(await seriousA11yViolations(operator)).toEqual([]);
  expect(await cspViolations(operator)).toEqual([]);
}, 60_000);

test('an owner invites an agent, who accepts the link, is signed in, and may read sites but not change them', async () => {
  await operator.setViewportSize({ width: 1280, height: 800 });
  await operator.getByRole('link', { name: 'Operators' }).click();
  await operator.getByRole('textbox', { name: 'Email' }).fill('agent@heed.test');
  await operator.getByRole('textbox', { name: 'Name' }).fill('Ash Agent');
  // an agent's sites are a choice the form asks for, never assumed
  await operator.getByRole('button', { name: 'Invite' }).click();
  await operator.getByText('Choose all sites, or the sites this agent works on.').waitFor();
  await operator.getByRole('radio', { name: 'Only these sites:' }).check();
  await operator.getByRole('checkbox', { name: 'Outdoor shop' }).check();
  await operator.getByRole('button', { name: 'Invite' }).click();
  const link = (await operator.getByRole('group', { name: 'Invitation link' }).locator('pre').textContent())!;
  expect(link).toMatch(new RegExp(`^${site.heed.url}/admin/#/invite/\\S+$`));
  await operator.getByRole('cell', { name: 'Invited' }).waitFor();

  const agentContext = await site.browser.newContext({ viewport: { width: 375, height: 740 } });
  try {
    const agent = await agentContext.newPage();
    agent.setDefaultTimeout(15_000);
    await agent.goto(link);
    expect(await agent.title()).toBe('Accept invitation · Heed console');
    await agent.getByRole('textbox', { name: 'Your name' }).fill('Ash Agent');
    await agent.getByLabel('New password').fill('short');
    await agent.getByRole('button', { name: 'Accept invitation' }).click();
    await agent.getByText(/at least \d+ characters/).waitFor();
    await agent.getByLabel('New password').fill('a long enough agent password');
    await agent.getByRole('button', { name: 'Accept invitation' }).click();
    await agent.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
    await expect.poll(() => agent.getByRole('list', { name: 'Conversations' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await agent.getByRole('link', { name: 'Sites' }).click();
    await agent.getByRole('link', { name: 'Outdoor shop' }).click();
    await agent.getByText('Only an owner can change a site.').waitFor();
    expect(await agent.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await agent.getByRole('textbox', { name: 'Name', exact: true }).isDisabled()).toBe(true);
    expect(await agent.getByRole('button', { name: 'Copy snippet' }).isVisible()).toBe(true);
  } finally {
    await agentContext.close();
  }
}, 60_000);
