import { expect, test } from 'vitest';
import { axeViolations } from '../support/browser.ts';
import { DemoSite } from '../support/demo-site.ts';
import { signedInOperator } from '../support/console.ts';

/**
 * The console on a phone (390 × 844, the width of a common one, and 320, the narrowest): every
 * page fits the screen's width, so nothing needs scrolling sideways and no button sits off
 * screen. Production mode, the console as built and served.
 */
const site = DemoSite.use();

test('every console page fits a 390 px and a 320 px wide screen: no sideways scrolling', async () => {
  const heed = site.heed;
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olive Owner' });
  await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana Agent with a rather long name' });
  const demo = await heed.services.db.site.findFirstOrThrow({ where: { key: 'demo' }, select: { id: true } });
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'Where is my order? It was supposed to arrive on Tuesday and the tracking link shows nothing at all.');
  await heed.until('the reply', async () => (await heed.services.db.message.count({ where: { conversationId, role: 'assistant' } })) === 1);

  const pages = {
    overview: '#/overview',
    conversations: '#/conversations',
    transcript: `#/conversations/${conversationId}`,
    sites: '#/sites',
    'site editor': `#/sites/${demo.id}`,
    'new site': '#/sites/new',
    operators: '#/operators',
    profile: '#/profile',
  };
  const overflowing: string[] = [];
  for (const width of [390, 320]) {
    const context = await site.browser.newContext({ viewport: { width, height: 844 } });
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: heed.url }]);
    const page = await context.newPage();
    for (const [label, hash] of Object.entries(pages)) {
      await page.goto(`${heed.url}/admin/${hash}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // every view and section has loaded (their "Loading…" lines live in shadow roots)
      await page.waitForFunction(() => {
        const loading = (root: Document | ShadowRoot): boolean =>
          [...root.querySelectorAll('*')].some(
            (el) => (el.shadowRoot && loading(el.shadowRoot)) || (el.children.length === 0 && el.textContent === 'Loading…'),
          );
        return !loading(document);
      });
      const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      if (wide.scroll > wide.inner) overflowing.push(`${label} at ${width} px: ${wide.scroll} px wide`);
      if (label === 'profile') expect(await axeViolations(page)).toEqual([]);
    }
    await context.close();
  }
  expect(overflowing).toEqual([]);
});
