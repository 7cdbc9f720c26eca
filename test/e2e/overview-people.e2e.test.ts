import { expect, test } from 'vitest';
import { axeViolations } from '../support/browser.ts';
import { DemoSite } from '../support/demo-site.ts';
import { signedInOperator } from '../support/console.ts';
import { PeopleSeed } from '../console/people-seed.ts';

/**
 * The overview's "People" in the console as built and served: first response and resolution
 * times and the visitors' ratings of a real site's conversations, in tables a screen reader can
 * follow (axe), that fit a 320 px screen without sideways scrolling of the page.
 */
const site = DemoSite.use();

test('People shows the times by day and by operator, the ratings and their comments; accessible, and fits 320 px', async () => {
  const heed = site.heed;
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olive Owner' });
  const demo = await heed.services.db.site.findFirstOrThrow({ where: { key: 'demo' }, select: { id: true } });
  const visitor = await heed.services.db.visitor.create({ data: { siteId: demo.id }, select: { id: true } });
  const seed = new PeopleSeed(heed.services, demo.id, visitor.id);
  const ana = await PeopleSeed.operator(heed.services, 'Ana');
  // about two hours ago (minutes before that): inside the 7 days, whatever the hour
  const at = (minutesAgo: number) => new Date(Date.now() - (120 + minutesAgo) * 60_000).toISOString();
  const id = await seed.conversation(at(10));
  await seed.handoff(id, at(10));
  await seed.operator(id, at(6), ana);
  await seed.resolve(id, at(0), ana);
  await seed.rate(id, at(-5), 1, 'Ana found my parcel');

  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: heed.url }]);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${heed.url}/admin/#/overview`);
    await page.getByRole('heading', { level: 2, name: 'People' }).waitFor();
    const byDay = page.getByRole('table', { name: 'By day' });
    expect(await byDay.getByRole('columnheader').allTextContents()).toContain('First response p50');
    expect(await byDay.getByRole('row').filter({ hasText: 'Whole range' }).getByRole('cell').allTextContents()).toEqual([
      '1',
      '4 min',
      '4 min',
      '1',
      '10 min',
      '10 min',
      '1',
      '0',
    ]);
    const anaRow = page.getByRole('table', { name: 'By operator' }).getByRole('row', { name: /^Ana/ });
    expect(await anaRow.getByRole('cell').first().textContent()).toBe('1');
    await page.getByText('Ana found my parcel').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 320, height: 740 });
    await page.getByRole('heading', { level: 2, name: 'People' }).waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide).toBeLessThanOrEqual(0);
  } finally {
    await context.close();
  }
}, 60_000);
