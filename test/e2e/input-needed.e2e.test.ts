import { expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import type { Locator, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/browser.ts';
import type { ScriptedReply } from '../../api/src/model-server/types.ts';

/**
 * "Input needed" as the visitor meets it on the demo host page: the model asks through
 * `request_user_input`, every surface turns amber until the visitor views the question
 * (viewing acknowledges it, like an unread reply; the question stays open), a click on a
 * choice (or a typed message) answers, and the reply follows. The launcher badge shows live
 * before input needed.
 */
const site = DemoSite.use();

const QUESTION = 'Which colour would you like for the Ridge 40?';
const AMBER = 'rgb(160, 79, 0)';

const ask = (opts: { choices?: string[]; allowFreeText?: boolean } = {}): ScriptedReply => ({
  toolCalls: [
    {
      id: 'call_colour',
      name: 'request_user_input',
      arguments: {
        question: QUESTION,
        choices: opts.choices ?? ['Green', 'Blue'],
        ...(opts.allowFreeText === undefined ? {} : { allow_free_text: opts.allowFreeText }),
      },
    },
  ],
});

/**
 * Holds the model's question until `release()`, so the visitor can move away from the thread
 * first and the question arrives unviewed. Only the first request asks; later unscripted ones
 * (say, a title check) get a plain answer.
 */
function heldQuestion(opts: { allowFreeText?: boolean } = {}): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  site.heed.model.setResponder(async () => {
    if (asked) return { text: 'Noted.' };
    asked = true;
    await gate;
    return ask(opts);
  });
  return release;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Chat' });
const choice = (page: Page, name: string) =>
  dialog(page).getByRole('group', { name: 'Choices' }).getByRole('button', { name, exact: true });
/** The sidebar row of a conversation, by (part of) its title. */
const row = (page: Page, title: string) => page.locator('heed-conversation-row').filter({ hasText: title }).locator('[part="row"]');
const launcherBadge = (page: Page) => page.locator('heed-launcher [part="badge"]');

async function expectBadge(badge: Locator, state: string, count: string) {
  await expect.poll(() => badge.getAttribute('data-state'), { timeout: 15_000 }).toBe(state);
  expect(await badge.textContent()).toBe(count);
}

test('the model asks while the visitor is elsewhere: amber row, inbox card and launcher badge; viewing acknowledges it, the question stays answerable, a click answers it', async () => {
  const page = await site.open();
  // the question arrives while the visitor looks at the inbox, not at the thread
  const release = heldQuestion({ allowFreeText: false });
  await site.send(page, 'I would like to order the Ridge 40');
  await dialog(page).getByRole('button', { name: 'Home' }).click();
  await page.locator('heed-inbox').waitFor();
  release();

  const thisRow = row(page, 'I would like to order the Ridge 40');
  await expect.poll(() => thisRow.getAttribute('data-state'), { timeout: 15_000 }).toBe('input_needed');
  expect(await thisRow.textContent()).toContain('Input needed');
  const badge = launcherBadge(page);
  await expectBadge(badge, 'input_needed', '1');
  expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(AMBER);
  // the inbox card shows the question too
  await page.locator('heed-inbox li[data-state="input_needed"]').getByText(QUESTION).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // opening the thread views the question: the attention state clears, the question stays open
  await page.locator('heed-inbox').getByRole('button', { name: 'I would like to order the Ridge 40' }).click();
  await dialog(page).getByText(QUESTION).waitFor();
  await expect.poll(() => thisRow.getAttribute('data-state')).toBe('default');
  await expect.poll(() => badge.count()).toBe(0);
  expect(await choice(page, 'Green').isEnabled()).toBe(true);
  expect(await choice(page, 'Blue').isEnabled()).toBe(true);

  site.heed.model.script({ text: 'Green it is: one Ridge 40 reserved for you.' });
  await choice(page, 'Green').click();
  await dialog(page).getByText('Green it is: one Ridge 40 reserved for you.').waitFor();
  expect(await choice(page, 'Green').isDisabled()).toBe(true);
  expect(await choice(page, 'Blue').isDisabled()).toBe(true);

  // the model got the visitor's choice as the result of its call
  const tool = site.heed.model.requests.at(-1)!.body.messages!.find((m) => m.role === 'tool');
  expect(tool).toMatchObject({ tool_call_id: 'call_colour', content: expect.stringContaining('Green') });
  await expect.poll(() => thisRow.getAttribute('data-state')).not.toBe('input_needed');
  await expect.poll(() => badge.count()).toBe(0);
  await page.close();
});

test('a question asked while the thread is open is viewed at once: never amber, and still answerable', async () => {
  const page = await site.open();
  site.heed.model.script(ask({ allowFreeText: false }));
  await site.send(page, 'Ridge 40 colours, please');
  await choice(page, 'Green').waitFor();
  const thisRow = row(page, 'Ridge 40 colours, please');
  await expect.poll(() => thisRow.getAttribute('data-state')).toBe('default');
  await expect.poll(() => launcherBadge(page).count()).toBe(0);
  expect(await choice(page, 'Blue').isEnabled()).toBe(true);
  await page.close();
});

test('with free text allowed, the next typed message answers the question', async () => {
  const page = await site.open();
  site.heed.model.script(ask());
  await site.send(page, 'Ridge 40 please');
  await dialog(page).getByText('your next message answers this question').waitFor();
  expect(await page.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')).toBe('Type your answer…');

  site.heed.model.script({ text: 'Dark green, noted.' });
  await site.send(page, 'Dark green if you have it');
  await dialog(page).getByText('Dark green, noted.').waitFor();
  const tool = site.heed.model.requests.at(-1)!.body.messages!.find((m) => m.role === 'tool');
  expect(tool).toMatchObject({ tool_call_id: 'call_colour', content: expect.stringContaining('Dark green if you have it') });
  expect(await choice(page, 'Green').isDisabled()).toBe(true);
  await page.close();
});

test('badge priority: with one live and one input-needed conversation the launcher counts live, then input needed', async () => {
  const page = await site.open();
  await site.showConversations(page);
  // the question arrives while the visitor is in another conversation, so it stays unviewed
  const release = heldQuestion({ allowFreeText: false });
  await site.send(page, 'Ridge 40 in which colours?');
  await row(page, 'Ridge 40 in which colours?').waitFor();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect.poll(() => row(page, 'Ridge 40 in which colours?').getAttribute('aria-current')).toBe('false');
  release();
  await expectBadge(launcherBadge(page), 'input_needed', '1');

  site.heed.model.script({ text: 'A slow answer about returns that streams for a while before it ends.', chunkSize: 4, chunkDelayMs: 150 });
  await site.send(page, 'And how do returns work?');
  await dialog(page).getByText('A slow answer').waitFor();
  // live outranks input needed: the badge counts the live conversation, in the live colour
  await expectBadge(launcherBadge(page), 'live', '1');
  await expect.poll(() => row(page, 'And how do returns work?').getAttribute('data-state')).toBe('live');
  expect(await row(page, 'Ridge 40 in which colours?').getAttribute('data-state')).toBe('input_needed');

  await dialog(page).getByText('before it ends.', { exact: false }).waitFor({ timeout: 20_000 });
  await expectBadge(launcherBadge(page), 'input_needed', '1');
  await page.close();
});

test('a task the model adds shows under the heading as "Open tasks (1)", collapsed until opened', async () => {
  const page = await site.open();
  site.heed.model.script(
    { toolCalls: [{ name: 'todo_add', arguments: { text: 'Check Ridge 40 stock in Oslo' } }] },
    { text: 'I will check the stock in Oslo and come back to you.' },
  );
  await site.send(page, 'Is the Ridge 40 in stock in Oslo?');
  await dialog(page).getByText('I will check the stock in Oslo').waitFor();
  const toggle = dialog(page).getByRole('button', { name: 'Open tasks (1)' });
  await toggle.waitFor();
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  const task = dialog(page).getByRole('listitem').filter({ hasText: 'Check Ridge 40 stock in Oslo' });
  expect(await task.isVisible()).toBe(false);
  await toggle.click();
  await task.waitFor();
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  await page.close();
});
