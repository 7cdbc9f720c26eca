import { expect, test } from 'vitest';
import { DemoSite } from '../support/demo-site.ts';
import type { Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/browser.ts';
import { finalTurn } from '../support/conversation-text.ts';
import { batchItems } from '../../api/src/chat/context/pending-turn.ts';
import { gate } from '../support/gate.ts';

/**
 * Visitor journeys in real Chromium against the real stack, on the demo host page that
 * embeds the widget with its script tag exactly as a customer would.
 */
const site = DemoSite.use({ DEBOUNCE_MS: '700' });

test('two quick sends get one reply that covers both', async () => {
  const page = await site.open();
  site.heed.model.setResponder((req) => ({ text: `Covered: ${finalTurn(req).includes('There are 2 items') ? 'both items' : 'one item'}` }));
  await site.send(page, 'Do you have the Ridge 40 in green?');
  await site.send(page, 'And what does shipping to Oslo cost?');
  await page.getByText('Covered: both items').waitFor();
  expect(site.heed.model.requests).toHaveLength(1);
  // in the order the visitor typed them, however the two requests raced
  expect(batchItems(finalTurn(site.heed.model.requests[0]!))?.map((item) => item.text)).toEqual([
    'Do you have the Ridge 40 in green?',
    'And what does shipping to Oslo cost?',
  ]);
  await page.close();
});

test('a message sent while a reply streams is answered by the next reply', async () => {
  const page = await site.open();
  site.heed.model.script(
    { text: 'Here is a long first answer that streams for a while.', chunkSize: 4, chunkDelayMs: 120 },
    { text: 'Second answer: invoices are fine.' },
  );
  await site.send(page, 'Tell me about returns');
  await page.getByText('Here is a long').waitFor();
  await site.send(page, 'Can I pay by invoice?');
  await page.getByText('Second answer: invoices are fine.').waitFor({ timeout: 20_000 });
  expect(finalTurn(site.heed.model.requests[1]!)).toBe('Can I pay by invoice?');
  await page.close();
});

test('a reply arriving while the panel is closed shows on the host badge and the launcher; opening the thread clears them', async () => {
  const page = await site.open();
  const closed = gate();
  site.heed.model.script({ text: 'Your answer arrived while you were away.', until: closed.opened });
  await site.send(page, 'Ping me when you know');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  closed.open();
  await expectText(page, '#host-count', '1');
  const hostBadge = page.locator('heed-unread-badge');
  await expectText(page, 'heed-unread-badge', '1');
  expect(await hostBadge.getAttribute('idle')).toBeNull();

  await page.getByRole('button', { name: 'Open chat' }).click();
  await page.getByText('Your answer arrived while you were away.').waitFor();
  await expectText(page, '#host-count', '0');
  await page.waitForFunction(() => document.querySelector('heed-unread-badge')?.hasAttribute('idle'));
  await page.close();
});

test('a reload mid-reply shows the reply completing on screen', async () => {
  const page = await site.open();
  const text = Array.from({ length: 40 }, (_, i) => `part${i}`).join(' ');
  site.heed.model.script({ text, chunkSize: 6, chunkDelayMs: 80 });
  await site.send(page, 'Long answer please');
  await page.getByText('part3', { exact: false }).waitFor();
  await page.reload();
  // the same thread is open again (the panel remembers it per tab) and the reply goes on
  await page.getByRole('dialog', { name: 'Chat' }).getByText('Long answer please').last().waitFor();
  await page.getByText('part39', { exact: false }).waitFor({ timeout: 20_000 });
  // the whole reply, start included: the text from before the reload was not lost
  await page.getByRole('dialog', { name: 'Chat' }).getByText(text, { exact: true }).waitFor();
  await page.close();
});

test('an XSS payload in a message and in a reply renders inert', async () => {
  const page = await site.open();
  let fired = false;
  await page.exposeFunction('__pwned', () => (fired = true));
  const payload = '<img src=x onerror="window.__pwned()"><script>window.__pwned()</script>[click](javascript:window.__pwned())';
  site.heed.model.script({ text: `Echo: ${payload}` });
  await site.send(page, payload);
  await page.getByText('Echo:', { exact: false }).waitFor();
  await page.waitForTimeout(300);
  expect(fired).toBe(false);
  // nothing dangerous survived in the DOM either: no script, no handler, no javascript: link
  const dangerous = await page.evaluate(() => {
    const found: string[] = [];
    const walk = (root: Document | ShadowRoot) =>
      root.querySelectorAll('*').forEach((el) => {
        if (el.tagName === 'SCRIPT' && root !== document) found.push('script');
        for (const attr of el.getAttributeNames()) if (attr.startsWith('on')) found.push(`${el.tagName}[${attr}]`);
        if (/^\s*javascript:/i.test(el.getAttribute('href') ?? '')) found.push(`${el.tagName}[href]`);
        if (el.shadowRoot) walk(el.shadowRoot);
      });
    walk(document);
    return found;
  });
  expect(dangerous).toEqual([]);
  await page.close();
});

test('the open widget has no serious or critical accessibility violations', async () => {
  const page = await site.open();
  site.heed.model.script({ text: 'Hello! **Bold** and a [link](https://example.com).' });
  await site.send(page, 'Hi');
  await page.getByText('Bold').waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.close();
});

async function expectText(page: Page, selector: string, text: string) {
  await page.waitForFunction(
    ([sel, want]) => {
      const el = document.querySelector(sel!);
      const shown = (el?.shadowRoot?.textContent ?? '') + (el?.textContent ?? '');
      return shown.includes(want!);
    },
    [selector, text],
    { timeout: 15_000 },
  );
}
