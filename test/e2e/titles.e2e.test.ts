import { expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import type { Page } from 'playwright-core';

/**
 * Titles as the visitor sees them on the demo host page: a rename from the heading that
 * survives a reload, and a title the background pass writes arriving live.
 */
const site = DemoSite.use();

/** Opens the chat, sends `text` and waits for the scripted `reply`: the new thread is open. */
async function conversationWithReply(text: string, reply: string): Promise<{ page: Page; conversationId: string }> {
  const page = await site.open();
  await site.showConversations(page);
  site.heed.model.script({ text: reply });
  await site.send(page, text);
  await page.getByText(reply).waitFor();
  const conversationId = await page.evaluate(
    (key) => JSON.parse(sessionStorage.getItem(key) ?? '{}').conversationId as string,
    site.storageKey('view'),
  );
  return { page, conversationId };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 2, name, exact: true });
const row = (page: Page, name: string) => page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name });

test('a visitor renames the conversation from the heading; the title shows at once and survives a reload', async () => {
  const { page, conversationId } = await conversationWithReply('hi, a question about delivery', 'Happy to help with delivery.');
  await heading(page, 'hi, a question about delivery').waitFor();

  await page.getByRole('button', { name: 'Rename conversation' }).click();
  const field = page.getByRole('textbox', { name: 'Conversation title' });
  await expect.poll(() => field.evaluate((el) => el.matches(':focus'))).toBe(true);
  await field.fill('  Delivery   to Bergen ');
  await field.press('Enter');
  await heading(page, 'Delivery to Bergen').waitFor();
  await row(page, 'Delivery to Bergen').waitFor();
  // focus is back on the button, ready for another rename
  await expect.poll(() => page.getByRole('button', { name: 'Rename conversation' }).evaluate((el) => el.matches(':focus'))).toBe(true);
  await expect
    .poll(() =>
      site.heed.services.db.conversation.findUnique({ where: { id: conversationId }, select: { title: true, titleSource: true } }),
    )
    .toEqual({ title: 'Delivery to Bergen', titleSource: 'manual' });

  // Escape cancels a second rename and leaves the chat open
  await page.getByRole('button', { name: 'Rename conversation' }).click();
  await field.fill('Not this');
  await field.press('Escape');
  await heading(page, 'Delivery to Bergen').waitFor();
  expect(await page.getByRole('dialog', { name: 'Chat' }).isVisible()).toBe(true);

  await page.reload();
  await heading(page, 'Delivery to Bergen').waitFor();
  await site.showConversations(page);
  await row(page, 'Delivery to Bergen').waitFor();
  await page.close();
});

test('a title the background pass writes replaces the fallback in heading and sidebar, without a reload', async () => {
  const { page, conversationId } = await conversationWithReply('do you ship to norway?', 'Yes, we ship to Norway.');
  await heading(page, 'do you ship to norway?').waitFor();
  // the reply leaves a title request behind; only this conversation's is due
  await site.heed.until('the title request', () =>
    site.heed.services.db.conversation.findFirst({ where: { id: conversationId, titleRequestedAt: { not: null } }, select: { id: true } }),
  );
  await site.heed.services.db.$executeRaw`UPDATE "Conversation" SET "titleRequestedAt" = NULL WHERE id <> ${conversationId}::uuid`;

  site.heed.model.script({ text: JSON.stringify({ title: 'Shipping to Norway', changed: true }) });
  const result = await site.heed.titlePass();
  expect(result.outcomes.changed).toBe(1);

  await heading(page, 'Shipping to Norway').waitFor();
  await row(page, 'Shipping to Norway').waitFor();
  await page.close();
});
