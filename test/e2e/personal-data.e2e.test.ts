import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sweepRetention } from '../../api/src/privacy/retention-sweep.ts';
import { seriousA11yViolations } from '../support/browser.ts';
import { signedInOperator } from '../support/console.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';

/**
 * Visitors' data end to end, in real Chromium, as a customer runs Heed (production mode, the shop
 * on another origin): a visitor deletes a conversation from the chat's heading menu and the
 * owner's live list drops it at once; the owner erases another visitor's data from the visitor
 * profile after a confirmation that counts what goes, and the visitor's chat starts afresh; the
 * owner sets how long conversations are kept and sees the sweep's last pass. Nothing of either
 * visitor's words is left in any table, Redis key or file.
 * Needs `npm run build:widget && npm run build:console` first (`npm test` does both).
 */
const site = DemoSite.use();

let host: HostSite;
let ownerContext: BrowserContext;
let owner: Page;
let visitorContext: BrowserContext;
let visitor: Page;
let siteId: string;
const failures: string[] = [];

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  host = await startHostSite(
    {
      '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outdoor shop</title></head>
        <body><h1>Boots</h1>${widgetTag(site.heed.url)}</body></html>`,
    },
    { host: 'localhost' },
  );
  ({ id: siteId } = await site.heed.services.db.site.update({
    where: { key: 'demo' },
    data: { name: 'Outdoor shop', allowedOrigins: [host.url] },
    select: { id: true },
  }));
  site.heed.services.sites.clear();
  const me = await signedInOperator(site.heed.services, site.heed.url, { role: 'owner', name: 'Olive' });
  ownerContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, value] = me.cookie.split('=') as [string, string];
  await ownerContext.addCookies([{ name, value, url: site.heed.url }]);
  owner = await ownerContext.newPage();
  owner.setDefaultTimeout(20_000);
  owner.on('pageerror', (err) => failures.push(`console pageerror ${err.message}`));
  await recordCspViolations(owner);
  visitorContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  visitor = await visitorContext.newPage();
  visitor.setDefaultTimeout(20_000);
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
});

afterAll(async () => {
  await ownerContext?.close();
  await visitorContext?.close();
  await host?.close();
});

const list = () => owner.getByRole('list', { name: 'Conversations', exact: true });
const row = (text: string) => list().getByRole('listitem').filter({ hasText: text });

/** The visitor id in the widget's stored token (`v2.<kid>.<visitorId>.…`). */
const visitorIdInPage = () =>
  visitor.evaluate(
    () =>
      Object.entries(localStorage)
        .find(([key]) => key.startsWith('heed:visitor:'))?.[1]
        .split('.')[2] ?? null,
  );

/** The visitor writes `words` in the open chat and waits for the demo model's reply. */
async function ask(words: string): Promise<void> {
  const box = visitor.getByRole('textbox', { name: 'Message' });
  await box.fill(words);
  await box.press('Enter');
  await visitor.getByRole('log', { name: 'Messages' }).getByText(words).waitFor();
  await site.heed.until(
    'the reply',
    async () =>
      (await site.heed.services.db.message.count({
        where: { role: 'assistant', conversation: { messages: { some: { content: words } } } },
      })) > 0,
  );
}

test('a visitor deletes a conversation from the heading menu, and the owner’s live list drops it at once', async () => {
  const marker = `del${randomUUID().replaceAll('-', '')}`;
  await owner.goto(`${site.heed.url}/admin/#/conversations`);
  await owner.getByRole('heading', { level: 1, name: 'Conversations' }).waitFor();
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  await ask(`Where is my order ${marker}?`);
  await row(marker).first().waitFor();

  await visitor.getByRole('button', { name: 'Conversation options' }).click();
  await visitor.getByRole('menuitem', { name: 'Delete conversation' }).click();
  const dialog = visitor.getByRole('alertdialog', { name: 'Delete conversation' });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('deleted for good');
  expect(await seriousA11yViolations(visitor)).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await visitor.getByText('Conversation deleted').waitFor();

  await row(marker).waitFor({ state: 'detached' });
  expect(await findMarker(markerPlacesOf(site.heed), marker)).toEqual([]);
});

test('the owner erases a visitor after a confirmation that counts what goes; their chat starts afresh', async () => {
  const marker = `era${randomUUID().replaceAll('-', '')}`;
  await ask(`Do you ship to Oslo ${marker}?`);
  await row(marker).first().click();
  const erase = owner.getByRole('button', { name: 'Delete visitor data…' });
  await erase.scrollIntoViewIfNeeded();
  expect(await owner.getByRole('link', { name: 'Download data' }).getAttribute('href')).toMatch(/export\/visitor\.json\?conversationId=/);
  await erase.click();
  const dialog = owner.getByRole('dialog', { name: 'Delete this visitor’s data?' });
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('1 conversation, 2 messages and 0 files, for good');
  expect(await seriousA11yViolations(owner)).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete visitor data' }).click();
  await owner.getByText('Visitor data deleted: 1 conversation, 2 messages and 0 files.').first().waitFor();
  await row(marker).waitFor({ state: 'detached' });
  expect(await findMarker(markerPlacesOf(site.heed), marker)).toEqual([]);

  // the visitor's next visit starts afresh: the old token is refused, a new visitor begins
  const erasedVisitor = await visitorIdInPage();
  await visitor.reload();
  // the panel stays open across the reload, on a home with nothing in it
  await visitor.getByRole('button', { name: 'Start a conversation' }).waitFor();
  expect(await visitor.getByText(marker).count()).toBe(0);
  await expect.poll(visitorIdInPage).not.toBe(erasedVisitor);
  expect(await site.heed.services.db.erasureRecord.count({ where: { siteId, actorKind: 'operator' } })).toBe(1);
});

test('the owner keeps conversations 30 days and sees the last sweep', async () => {
  await owner.goto(`${site.heed.url}/admin/#/sites/${siteId}`);
  const days = owner.getByRole('spinbutton', { name: 'Keep conversations for (days)' });
  await days.fill('30');
  await owner.getByRole('button', { name: 'Save changes' }).click();
  await site.heed.until(
    'the setting saved',
    async () =>
      (await site.heed.services.db.site.findUniqueOrThrow({ where: { id: siteId }, select: { retentionDays: true } })).retentionDays === 30,
  );
  await owner.getByText('The sweep has not run for this site yet.').waitFor();
  await sweepRetention(site.heed.services);
  await owner.reload();
  await owner.getByText(/Last sweep: .*, removed 0 conversations/).waitFor();
  expect(await owner.getByRole('spinbutton', { name: 'Keep conversations for (days)' }).inputValue()).toBe('30');
  expect(await seriousA11yViolations(owner)).toEqual([]);
  expect(await cspViolations(owner)).toEqual([]);
  expect(failures).toEqual([]);
});
