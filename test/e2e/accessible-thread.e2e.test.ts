import { afterAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { axeViolations } from '../support/browser.ts';
import { gate } from '../support/gate.ts';

/**
 * The thread as a visitor meets it, in production mode with the host page on another origin:
 * the typing row appears the moment a message is sent (well before any reply streams), and the
 * thread is a log named "Messages" in which the finished reply is there for a screen reader once,
 * with who said it; while the reply streams it is silent to screen readers. Axe finds nothing in
 * either state. Needs `npm run build:widget`.
 */
const site = DemoSite.use();
afterAll(() => site.configure({ assistantName: null }));

/**
 * Sends `text` from the composer inside the widget's shadow roots; answers ms from Enter to the
 * typing row, seen by a MutationObserver on the thread as soon as it is rendered.
 */
function sendAndTimeDots(page: Page, text: string): Promise<number> {
  return page.evaluate((content) => {
    const deep = (root: Document | ShadowRoot, selector: string): Element | null => {
      const hit = root.querySelector(selector);
      if (hit) return hit;
      for (const el of root.querySelectorAll('*')) {
        const inner = el.shadowRoot && deep(el.shadowRoot, selector);
        if (inner) return inner;
      }
      return null;
    };
    const thread = deep(document, 'heed-message-list')!.shadowRoot!;
    const box = deep(document, 'textarea') as HTMLTextAreaElement;
    return new Promise<number>((resolve) => {
      let start = 0;
      const seen = new MutationObserver(() => {
        if (!thread.querySelector('[part~="typing"]')) return;
        seen.disconnect();
        resolve(performance.now() - start);
      });
      seen.observe(thread, { childList: true, subtree: true });
      box.value = content;
      box.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
      start = performance.now();
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
    });
  }, text);
}

test('the typing row shows within 100 ms of a send; the finished reply is in the Messages log once, with its speaker', async () => {
  await site.configure({ assistantName: 'Bootsy' });
  const page = await site.open();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  site.heed.model.script({ text: 'We open at nine.' });
  await site.send(page, 'When do you open?');
  await dialog.getByText('We open at nine.').waitFor();

  // a follow-up in the open thread, its reply held until the typing row has been looked at
  const held = gate();
  site.heed.model.script({ text: 'Yes, on Saturdays until noon.', until: held.opened });
  const log = dialog.getByRole('log', { name: 'Messages' });
  try {
    const ms = await sendAndTimeDots(page, 'Also on Saturdays?');
    expect(ms).toBeLessThan(100);
    await log.getByText('Bootsy: Replying').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    held.open();
  }

  await log.getByText('Yes, on Saturdays until noon.').waitFor();
  await log.getByText('Bootsy: Replying').waitFor({ state: 'detached' });
  // what a screen reader is given: every message in the log with who said it, the reply once
  const spoken = await log.ariaSnapshot();
  expect(spoken).toContain('You: When do you open?');
  expect(spoken).toContain('You: Also on Saturdays?');
  expect(spoken.split('Yes, on Saturdays until noon.').length - 1).toBe(1);
  expect(spoken).toMatch(/Bootsy:[\s\S]*Yes, on Saturdays until noon\./);
  expect(await axeViolations(page)).toEqual([]);
  await page.close();
});
