import { expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import { finalTurn, lastItem } from '../support/conversation-text.ts';

/**
 * A visitor who types faster than the send limit loses nothing: the refused message stays
 * queued with "Sending in … s" beside it, goes out by itself when the window allows, and
 * every message is delivered once, in order, and answered.
 */
const site = DemoSite.use({
  RATE_LIMITS: JSON.stringify({
    sendBurst: { points: 3, seconds: 5 },
    sendSustained: { points: 1000, seconds: 3600 },
    modelRuns: { points: 1000, seconds: 600 },
  }),
});

test('sends over the burst limit wait visibly and are all delivered once, in order, and answered', async () => {
  const page = await site.open();
  site.heed.model.setResponder((req) => ({ text: `Answered: ${lastItem(finalTurn(req))}` }));
  const texts = ['first thought', 'second thought', 'third thought', 'fourth thought', 'fifth thought'];
  for (const text of texts) await site.send(page, text);

  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog
    .getByText(/^Sending in \d+ s$/)
    .first()
    .waitFor();
  // the waiting message is still shown, pending, in place; nothing says it failed
  await dialog.getByText('fifth thought').waitFor();
  expect(await dialog.getByText('Not sent').count()).toBe(0);

  const db = site.heed.services.db;
  await site.heed.until(
    'every message delivered and answered',
    async () => (await db.message.count({ where: { content: { in: texts }, state: 'answered' } })) === texts.length,
    40_000,
  );
  const stored = await db.message.findMany({
    where: { role: 'user', content: { in: texts } },
    orderBy: { seq: 'asc' },
    select: { content: true, conversationId: true },
  });
  expect(stored.map((m) => m.content)).toEqual(texts); // once each, in the order typed
  expect(new Set(stored.map((m) => m.conversationId)).size).toBe(1);

  // the page agrees: no mark left, the last reply shown
  await dialog.getByText('Answered: fifth thought').waitFor({ timeout: 20_000 });
  await expect.poll(() => dialog.getByText(/^Sending/).count(), { timeout: 10_000 }).toBe(0);
  await page.close();
}, 90_000);
