import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { finalTurn } from '../support/conversation-text.ts';

/**
 * The typing-aware debounce from the visitor's side, in production mode: a lone message reaches
 * the model a short settle after it is sent, well before the debounce; a visitor who keeps typing
 * after a send gets one answer to everything they sent. The settle here is longer than the
 * default (200 ms) so a busy machine's keystrokes still land inside it; `npm run bench` measures
 * the default. Needs `npm run build:widget`.
 */
const SETTLE_MS = 1_500;
const DEBOUNCE_MS = 6_000;
const site = DemoSite.use({ SEND_SETTLE_MS: String(SETTLE_MS), DEBOUNCE_MS: String(DEBOUNCE_MS), MAX_WAIT_MS: '30000' });

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Chat' });

/** The run and the message of the conversation that holds `text`, as the database has them. */
async function runsOf(text: string) {
  const message = await site.heed.services.db.message.findFirstOrThrow({
    where: { content: text },
    select: { conversationId: true, createdAt: true },
  });
  const runs = await site.heed.services.db.run.findMany({ where: { conversationId: message.conversationId }, select: { startedAt: true } });
  return { sentAt: message.createdAt, runs };
}

test('a lone message, with nothing typed after it, reaches the model well before the debounce', async () => {
  const page = await site.open();
  const question = 'Do you deliver on Saturdays?';
  site.heed.model.script({ text: 'Yes, until noon.' });
  await site.send(page, question);
  await dialog(page).getByText('Yes, until noon.').waitFor();
  const { sentAt, runs } = await runsOf(question);
  expect(runs).toHaveLength(1);
  const waited = runs[0]!.startedAt.getTime() - sentAt.getTime();
  expect(waited).toBeLessThan(DEBOUNCE_MS / 2);
  await page.close();
});

test('a visitor who keeps typing after a send gets one answer to both messages', async () => {
  const page = await site.open();
  const first = 'Is the Ridge 40 waterproof?';
  const second = 'and does it fit a 15 inch laptop';
  site.heed.model.script({ text: 'Yes to both.' });
  await site.send(page, first);
  // typing on at a visitor's pace, for longer than the settle: the first message waits for the rest
  await composer(page).pressSequentially(second, { delay: 90 });
  await composer(page).press('Enter');
  await dialog(page).getByText('Yes to both.').waitFor();

  const { runs } = await runsOf(first);
  expect(runs).toHaveLength(1);
  const turn = finalTurn(site.heed.model.requests.at(-1)!);
  expect(turn).toContain(first);
  expect(turn).toContain(second);
  await page.close();
});
