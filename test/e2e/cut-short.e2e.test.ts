import { expect, test } from 'vitest';
import { CONTINUE_REQUEST } from '../../api/src/chat/context/pending-turn.ts';
import { axeViolations } from '../support/browser.ts';
import { finalTurn } from '../support/conversation-text.ts';
import { DemoSite } from '../support/demo-site.ts';

/**
 * A reply the model cut short at its token cap, from the visitor's side, in production mode with
 * the host page on another origin: the reply says it was cut short and offers Continue; Continue
 * brings the rest as the next reply (the model asked to go on, the question not re-sent as
 * unanswered), and the offer is gone, also after a reload. Needs `npm run build:widget`.
 */
const site = DemoSite.use();

test('a reply cut short says so and offers Continue; Continue brings the rest and the offer goes, for good', async () => {
  const page = await site.open();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  site.heed.model.script({ text: 'Our stores: 1. Oslo 2. Bergen 3. Trond', finishReason: 'length' });
  await site.send(page, 'List every store in Norway');
  await dialog.getByText('This reply was cut short.').waitFor();
  const more = dialog.getByRole('button', { name: 'Continue' });
  await more.waitFor();
  expect(await axeViolations(page)).toEqual([]);

  site.heed.model.script({ text: 'heim and 4. Tromsø' });
  await more.press('Enter');
  await dialog.getByText('heim and 4. Tromsø').waitFor();
  expect(finalTurn(site.heed.model.requests.at(-1)!)).toBe(CONTINUE_REQUEST);
  await dialog.getByText('This reply was cut short.').waitFor({ state: 'detached' });
  expect(await more.count()).toBe(0);

  // the panel and its thread reopen by themselves after a reload
  await page.reload();
  await dialog.getByText('heim and 4. Tromsø').waitFor();
  expect(await dialog.getByText('This reply was cut short.').count()).toBe(0);
  expect(await dialog.getByRole('button', { name: 'Continue' }).count()).toBe(0);
  await page.close();
});
