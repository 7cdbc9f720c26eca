import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { xssPayloads } from '../support/xss-payloads.ts';

/**
 * The XSS corpus through every way text reaches the widget on the demo shop: visitor
 * messages, model replies (a prompt injection can make the model write anything), a title
 * the visitor sets and the one the first message gives, a provenance label, and the inbox
 * excerpt of a reply that arrived while the visitor looked elsewhere. Once with the platform
 * HTML Sanitizer, once with `Element.setHTML` deleted (the DOMPurify path). The shop's CSP
 * is bypassed, so the widget alone stands between a payload and execution, as on a host
 * page without a CSP; a trap records any call of `__xss`, `alert`, `confirm` or `prompt`.
 */
const site = DemoSite.use();

/** The corpus in five visitor messages (each under the 4000-character limit). */
const batches = Array.from({ length: 5 }, (_, k) => xssPayloads.filter((_, i) => i % 5 === k));
const title = '<img src=x onerror=__xss(94)><a href=javascript:__xss(95)>t</a>';
const provenance = '<svg onload=__xss(96)><a href=javascript:__xss(97)>p</a>';
// excerpts drop underscores at word edges (`__xss` would become `xss`): this one calls the alert trap
const excerpt = '<img src=x onerror=alert(98)> [x](javascript:alert(99)) <b onclick=alert(100)>b</b>';

interface Visit {
  page: Page;
  /** trap calls: must stay empty */
  calls: string[];
  /** requests to anywhere but the shop and Heed: must stay empty */
  remote: string[];
}

async function visit(withoutSetHTML: boolean): Promise<Visit> {
  const calls: string[] = [];
  const remote: string[] = [];
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.on('pageerror', (err) => console.error('[page]', err.message));
  const ours = [new URL(site.heed.shopUrl).origin, new URL(site.heed.url).origin];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith('http') && !ours.includes(url.origin)) remote.push(req.url());
  });
  await page.exposeFunction('__xss', (n: unknown) => void calls.push(String(n)));
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xss: (n: string) => void };
    for (const name of ['alert', 'confirm', 'prompt']) w[name] = (msg?: unknown) => w.__xss(`${name} ${String(msg)}`);
  });
  if (withoutSetHTML) await page.addInitScript(() => delete (Element.prototype as { setHTML?: unknown }).setHTML);
  await page.goto(site.heed.shopUrl);
  // the trap works (and only then does its silence mean something)
  await page.evaluate(() => alert('canary'));
  await expect.poll(() => calls).toEqual(['alert canary']);
  calls.length = 0;
  expect(await page.evaluate(() => typeof (Element.prototype as { setHTML?: unknown }).setHTML)).toBe(
    withoutSetHTML ? 'undefined' : 'function',
  );
  return { page, calls, remote };
}

/**
 * Everything dangerous left in the document and every open shadow root: script, handlers,
 * script-ish URLs anywhere; forms, images, frames, styles and `style` attributes in replies.
 */
function dangerousNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const unsafeUrl = /^[\s\u0000-\u001f]*(javascript|vbscript|data):/i;
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        const what = `${el.localName} in ${root === document ? 'document' : (root as ShadowRoot).host.localName}`;
        if (el.localName === 'script' && root !== document) found.push(what);
        for (const attr of el.getAttributeNames()) {
          if (/^on/i.test(attr)) found.push(`${what} [${attr}]`);
          if (unsafeUrl.test(el.getAttribute(attr) ?? '')) found.push(`${what} [${attr}=${el.getAttribute(attr)}]`);
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
      for (const md of root.querySelectorAll('.md, .provenance, .excerpt')) {
        for (const el of md.querySelectorAll(
          'form, img, iframe, object, embed, svg, math, style, link, meta, base, input, button, [style], [id], [name], [class]',
        )) {
          found.push(`${el.localName} in a reply: ${el.outerHTML.slice(0, 80)}`);
        }
      }
    };
    walk(document);
    return found;
  });
}

async function journey(withoutSetHTML: boolean): Promise<void> {
  const { page, calls, remote } = await visit(withoutSetHTML);
  await page.getByRole('button', { name: 'Open chat' }).click();
  await site.showConversations(page);

  // the corpus as visitor messages, each answered by a reply echoing it; the first message becomes the fallback title
  for (const [k, batch] of batches.entries()) {
    site.heed.model.script({ text: `Echo ${k}:\n\n${batch.join('\n\n')}\n\n**End of echo ${k}.**` });
    await site.send(page, batch.join('\n\n'));
    await page.locator('.md strong', { hasText: `End of echo ${k}.` }).waitFor();
  }
  await page.locator('.user', { hasText: '<img src=x onerror=__xss(2)>' }).waitFor(); // the visitor's message, as text
  await page.locator('.md strong', { hasText: '<img src=x onerror=__xss(7)>' }).waitFor(); // a reply's raw HTML, as text

  // a payload title, set from the heading
  await page.getByRole('button', { name: 'Rename conversation' }).click();
  const field = page.getByRole('textbox', { name: 'Conversation title' });
  await field.fill(title);
  await field.press('Enter');
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
  await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: title }).waitFor();

  // a payload provenance label on every reply, shown after a reload reopens the thread
  const conversationId = await page.evaluate(
    (key) => JSON.parse(sessionStorage.getItem(key) ?? '{}').conversationId as string,
    site.storageKey('view'),
  );
  await site.heed.services.db.message.updateMany({
    where: { conversationId, role: 'assistant' },
    data: { provenance: 'intent', provenanceLabel: provenance },
  });
  await page.reload();
  await page.locator('.md strong', { hasText: 'End of echo 4.' }).waitFor();
  await page.locator('.provenance', { hasText: 'onload=__xss(96)' }).first().waitFor();
  expect(await dangerousNodes(page)).toEqual([]);

  // a payload excerpt: the reply arrives while the visitor is on the inbox
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  site.heed.model.setResponder(async () => {
    await held;
    return { text: `${excerpt}\n\nThe rest of the reply.` };
  });
  const before = site.heed.model.requests.length;
  await site.send(page, 'One more thing');
  await page.getByRole('button', { name: 'Home' }).click();
  await site.heed.model.waitForRequests(before + 1, 20_000);
  release();
  await page.locator('.excerpt', { hasText: 'onclick=alert(100)' }).waitFor();
  await page.getByRole('button', { name: title }).first().waitFor();
  expect(await dangerousNodes(page)).toEqual([]);

  // nothing ran, nothing loaded from elsewhere: every image the page holds has loaded or failed, so any
  // handler one carried has had its event
  await page.waitForFunction(() => {
    const images = (root: Document | ShadowRoot): HTMLImageElement[] => [
      ...root.querySelectorAll('img'),
      ...[...root.querySelectorAll('*')].flatMap((el) => (el.shadowRoot ? images(el.shadowRoot) : [])),
    ];
    return images(document).every((img) => img.complete);
  });
  expect(calls).toEqual([]);
  expect(remote).toEqual([]);
  await page.close();
}

test('the XSS corpus in messages, replies, a title, provenance labels and an excerpt runs nothing and loads nothing (platform sanitizer)', async () => {
  await journey(false);
}, 120_000);

test('the XSS corpus in messages, replies, a title, provenance labels and an excerpt runs nothing and loads nothing (DOMPurify, no setHTML)', async () => {
  await journey(true);
}, 120_000);
