import { afterAll, expect, test } from 'vitest';
import { axeViolations } from '../support/browser.ts';
import { DemoSite } from '../support/demo-site.ts';
import { signedInOperator } from '../support/console.ts';
import { startHostSite, type HostFile, type HostSite } from '../support/host-site.ts';
import { finalTurn, promptMessages } from '../support/conversation-text.ts';

/**
 * Grounded answers from the owner's and the visitor's side, in production mode, the shop on
 * another origin: the owner adds the shop's sitemap in the console's Knowledge section ("Sitemap
 * or page URL", "Add source") and sees its pages synced; a visitor's question brings the page's
 * excerpt into the model request, and the reply's citation shows under it as a link to that
 * page (new tab, no opener), which opens it. Needs `npm run build:widget && npm run build:console`.
 */
const site = DemoSite.use({ KNOWLEDGE_ALLOW_PRIVATE: '1' });
let pages: HostSite;
afterAll(async () => {
  await pages?.close();
});

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>${title}</h1>${body}</article></main></body></html>`;

test('the owner adds a sitemap in the console; the visitor gets a reply that cites the page, with a working link', async () => {
  const files: Record<string, HostFile> = {
    '/shipping': html(
      'Shipping',
      '<h2>Costs</h2><p>Delivery is free for orders above 50 EUR. Below that, delivery costs 4.90 EUR per order.</p>',
    ),
    '/returns': html('Returns', '<p>Return any item within 30 days of delivery, unworn and with its labels.</p>'),
  };
  pages = await startHostSite(files);
  files['/sitemap.xml'] = {
    body: `<urlset><url><loc>${pages.url}/shipping</loc></url><url><loc>${pages.url}/returns</loc></url></urlset>`,
    type: 'application/xml',
  };

  // the owner, in the console
  const owner = await signedInOperator(site.heed.services, site.heed.url, { role: 'owner' });
  const demo = await site.heed.services.db.site.findFirstOrThrow({ where: { key: 'demo' }, select: { id: true } });
  const consoleContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, value] = owner.cookie.split('=') as [string, string];
  await consoleContext.addCookies([{ name, value, url: site.heed.url }]);
  const admin = await consoleContext.newPage();
  await admin.goto(`${site.heed.url}/admin/#/sites/${demo.id}`);
  await admin.getByRole('textbox', { name: 'Sitemap or page URL' }).fill(`${pages.url}/sitemap.xml`);
  await admin.getByRole('button', { name: 'Add source' }).click();
  const row = admin.locator(`heed-knowledge-sources tr[data-source="${pages.url}/sitemap.xml"]`);
  await row.locator('td', { hasText: /^2$/ }).first().waitFor();
  await consoleContext.close();

  // the visitor, on the shop
  const page = await site.open();
  site.heed.model.script({ text: 'Delivery is free above 50 EUR; below that it costs 4.90 EUR [1].' });
  await site.send(page, 'How much does delivery cost?');
  const sources = page.getByRole('list', { name: 'Sources' });
  const link = sources.getByRole('link', { name: /\[1\] Shipping/ });
  await link.waitFor();
  expect(await link.getAttribute('href')).toBe(`${pages.url}/shipping`);
  expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  const system = promptMessages(site.heed.model.requests.at(-1)!).find((m) => m.role === 'system' && m.content.includes('Site knowledge'));
  expect(system?.content).toContain('Delivery is free for orders above 50 EUR');
  expect(finalTurn(site.heed.model.requests.at(-1)!)).toBe('How much does delivery cost?');

  const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await opened.getByRole('heading', { name: 'Shipping' }).waitFor();
  await opened.close();
  await page.close();
});

test('a question the pages do not answer is counted in the console; the owner’s snippet answers it next time', async () => {
  const demo = await site.heed.services.db.site.findFirstOrThrow({ where: { key: 'demo' }, select: { id: true } });
  // the visitor asks what no page covers: the model is told to say so (the demo model does)
  const page = await site.open();
  await site.send(page, 'Can I pay with Bitcoin?');
  await page.getByText('I do not know: nothing on this site’s pages covers that').waitFor();
  expect(JSON.stringify(site.heed.model.requests.at(-1)!.body.messages)).toContain('say plainly that you do not know');

  // the owner sees it among the unanswered questions and writes a snippet for it
  const owner = await signedInOperator(site.heed.services, site.heed.url, { role: 'owner' });
  const consoleContext = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const [name, value] = owner.cookie.split('=') as [string, string];
  await consoleContext.addCookies([{ name, value, url: site.heed.url }]);
  const admin = await consoleContext.newPage();
  await admin.goto(`${site.heed.url}/admin/#/sites/${demo.id}`);
  const unanswered = admin.getByRole('list', { name: 'Unanswered questions' });
  await unanswered.getByText('“Can I pay with Bitcoin?”').waitFor();
  await admin.getByText('1 question the site’s knowledge had nothing for').waitFor();
  await admin.getByRole('textbox', { name: 'Question' }).fill('Can I pay with Bitcoin?');
  await admin.getByRole('textbox', { name: 'Answer' }).fill('We do not take Bitcoin; we take cards and Vipps.');
  await admin.getByRole('button', { name: 'Add snippet' }).click();
  await admin.getByRole('list', { name: 'Snippets' }).getByText('We do not take Bitcoin; we take cards and Vipps.').waitFor();
  await unanswered.getByRole('button', { name: 'Mark handled: Can I pay with Bitcoin?' }).click();
  await admin.getByText('None: every question found something').waitFor();
  expect(await axeViolations(admin)).toEqual([]);

  // asked again, the reply quotes the owner's answer and names it, with nothing to link to
  await site.send(page, 'Can I pay with Bitcoin?');
  const sources = page.getByRole('list', { name: 'Sources' }).last();
  await sources.getByText('[1] Can I pay with Bitcoin?').waitFor();
  expect(await sources.getByRole('link').count()).toBe(0);
  await page.getByText('“We do not take Bitcoin; we take cards and Vipps.” [1]').waitFor();

  // the transcript shows what that run was shown and cited
  const conversation = await site.heed.services.db.conversation.findFirstOrThrow({
    where: { siteId: demo.id, messages: { some: { content: { contains: 'We do not take Bitcoin' } } } },
    select: { id: true },
  });
  await admin.goto(`${site.heed.url}/admin/#/conversations/${conversation.id}`);
  const shown = admin.getByRole('list', { name: 'Site knowledge per run' });
  await shown.getByText(/\[1\] Can I pay with Bitcoin\? \(file or snippet\) — cited/).waitFor();
  await consoleContext.close();
  await page.close();
});
