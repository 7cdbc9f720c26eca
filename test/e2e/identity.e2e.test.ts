import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { makeClient } from '../support/harness.ts';

/**
 * A site owner's security settings as a visitor meets them, on a third-party page in
 * production mode: a user identified with a JWT the host's backend signed finds the
 * conversation they had on another device; a forged identity is refused and the visitor
 * goes on anonymously; a page whose origin the site does not allow gets one clear console
 * error for the site owner.
 */
const site = DemoSite.use();
const SECRET = 'demo-identity-secret-9f8e7d6c5b4a3210';

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await site.configure({ allowedOrigins: [], identitySecrets: [] });
});

/** What the host's backend does: sign the signed-in user's id for 10 minutes. */
const sign = (userId: string, secret = SECRET) =>
  new SignJWT({ sub: userId, name: 'Ana' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));

/** A third-party page that identifies its user before the widget loads (the snippet of docs/site-owners/identity.md). */
async function hostPage(identity: { userId: string; token: string } | null): Promise<HostSite> {
  const js = `window.Heed = window.Heed || function () { (window.Heed.q = window.Heed.q || []).push(arguments); };
${identity ? `Heed('identify', ${JSON.stringify(identity)});` : ''}`;
  const html = `<!doctype html><html lang="en"><head><title>Account</title><script src="/host.js"></script></head><body><h1>My account</h1>${widgetTag(site.heed.url)}</body></html>`;
  const host = await startHostSite({ '/': html, '/host.js': js });
  hosts.push(host);
  return host;
}

async function visit(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  await page.goto(url);
  return { page, errors };
}

test('an identified user finds the conversation they had on another device', async () => {
  await site.configure({ identitySecrets: [SECRET] });
  const userId = `user-${randomUUID()}`;
  const token = await sign(userId);
  // the other device: same user, one conversation
  const phone = await makeClient(site.heed.url, null).session.start.mutate({ siteKey: 'demo', identity: { userId, token } });
  const earlier = await makeClient(site.heed.url, phone.visitorToken).conversation.create.mutate({ title: 'Order 1042 delivery' });

  const { page, errors } = await visit((await hostPage({ userId, token })).url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  await site.showConversations(page);
  await page.getByRole('list', { name: 'Conversations' }).getByText('Order 1042 delivery').waitFor();
  expect(errors).toEqual([]);
  expect(earlier.id).toBeTruthy();
  await page.close();
});

test('a forged identity is refused with a clear console error, and the visitor goes on anonymously', async () => {
  await site.configure({ identitySecrets: [SECRET] });
  const userId = `user-${randomUUID()}`;
  const { page, errors } = await visit((await hostPage({ userId, token: await sign(userId, 'an-attackers-guess-at-the-secret') })).url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  site.heed.model.script({ text: 'Hello, anonymous visitor.' });
  await site.send(page, 'Hi');
  await page.getByText('Hello, anonymous visitor.').waitFor();
  expect(errors.filter((e) => e.includes('identity_invalid'))).toHaveLength(1);
  expect(await site.heed.services.db.visitor.count({ where: { externalId: userId } })).toBe(0);
  await page.close();
});

test('a page on an origin the site does not allow gets one clear console error and no session', async () => {
  await site.configure({ allowedOrigins: ['https://shop.example'] });
  const before = await site.heed.services.db.visitor.count();
  const { page, errors } = await visit((await hostPage(null)).url);
  await expect.poll(() => errors.filter((e) => e.includes('origin_not_allowed')).length, { timeout: 10_000 }).toBe(1);
  expect(errors.find((e) => e.includes('origin_not_allowed'))).toContain('allowed origins');
  expect(await site.heed.services.db.visitor.count()).toBe(before);
  await page.close();
});
