import { afterEach, beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { decodePng, pixelDiff } from '../support/pixel-diff.ts';
import { gate } from '../support/gate.ts';

/**
 * The widget on host pages whose own styles would leak into it. Shadow DOM keeps the page's
 * selectors out, not inheritance, and a page's `*` and `heed-widget` rules still match the
 * elements it holds. On each page here (its stylesheet below, served from its own origin
 * with the snippet of docs/site-owners/embedding.md) the open chat must look as it does on a plain page: the same
 * computed styles on the heading, the row, both bubbles, the textbox and the buttons, the
 * same boxes, and the same pixels.
 */
const site = DemoSite.use();

const HOSTILE: Record<string, string> = {
  'a 62.5 % root font size': 'html { font-size: 62.5% }',
  'a 24 px root font size': 'html { font-size: 24px }',
  'upper case, letter-spaced, centred, tall lines':
    'html { text-transform: uppercase; letter-spacing: 3px; text-align: center; line-height: 2.4 }',
  'a right-to-left body': 'body { direction: rtl }',
  'content-box on everything': '* { box-sizing: content-box }',
  'border-box on everything': '*, *::before, *::after { box-sizing: border-box }',
  'a serif host font': 'html { font-family: Georgia, serif }',
  'a bold, red, pre-formatted body': 'body { color: red; font-weight: 700; word-spacing: 10px; white-space: pre }',
  'unset buttons, one holding the host badge': 'button { all: unset }',
  'every other inherited property': `html {
    font: italic small-caps 300 condensed 18px/3 monospace; font-feature-settings: "smcp"; font-kerning: none;
    text-indent: 40px; text-shadow: 0 0 3px blue; text-decoration: underline line-through; word-break: break-all;
    overflow-wrap: anywhere; hyphens: auto; tab-size: 20; list-style: square inside; quotes: "<" ">"; cursor: wait;
    caret-color: red; -webkit-text-fill-color: green; -webkit-text-stroke: 1px blue; color-scheme: dark;
  }`,
  "a transformed, clipped body (it would become the launcher's containing block)":
    'body { transform: translateZ(0); height: 200px; overflow: hidden }',
  'a filtered, contained body': 'body { filter: saturate(1); contain: paint; height: 120px }',
  'rules aimed at the elements the page holds, even !important': `
    * { font: 700 20px/3 monospace !important; letter-spacing: 2px !important; text-transform: uppercase !important; color: red !important }
    heed-widget, heed-unread-badge { font-size: 30px !important; word-spacing: 9px; text-align: right; cursor: wait }`,
};

/**
 * A short page (no scrollbars) on a white canvas (what shows around the panel's and the
 * launcher's round corners is the page's), the host badge inside the page's own button, and `tag`.
 */
const hostPage = (tag: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>` +
  `<style>html { background: #fff }</style><link rel="stylesheet" href="/host.css"></head>` +
  `<body><header><button type="button">Support <heed-unread-badge></heed-unread-badge></button></header>` +
  `<main><h1>A host page</h1><p>Its styles are meant for its own content.</p></main>${tag}</body></html>`;

/** What each checked part is, as Playwright's CSS (which pierces open shadow roots) finds it. */
const PARTS = {
  heading: 'heed-heading h2[part=title]',
  status: 'heed-heading [role=status]',
  row: 'heed-conversation-row .row',
  'row title': 'heed-conversation-row .title',
  'new conversation': 'heed-sidebar button.new',
  'visitor bubble': 'heed-message-list .message.user',
  'reply bubble': 'heed-message-list .message.assistant',
  'reply list item': 'heed-message-list .assistant li',
  textbox: 'heed-composer textarea',
  send: 'heed-composer button[part=send]',
  launcher: 'heed-launcher button',
};

/** Every property the page could leak in, and the box. */
const PROPS = [
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-stretch',
  'font-variant-caps',
  'font-feature-settings',
  'font-kerning',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-transform',
  'text-align',
  'text-indent',
  'text-shadow',
  'text-decoration-line',
  'white-space-collapse',
  'text-wrap-mode',
  'word-break',
  'overflow-wrap',
  'hyphens',
  'tab-size',
  'list-style-type',
  'list-style-position',
  'quotes',
  'color',
  '-webkit-text-fill-color',
  '-webkit-text-stroke-width',
  'caret-color',
  'direction',
  'cursor',
  'visibility',
  'box-sizing',
  'color-scheme',
  'width',
  'height',
  'padding-top',
  'padding-left',
  'background-color',
  'box-shadow',
];

const QUESTION = 'Hi! How long does delivery to Oslo take, and can I send things back if they do not fit?';
const REPLY = 'Parcels to Oslo take **two days**. Returns are free:\n\n- at a pick-up point\n- from home';

interface Look {
  styles: Record<string, Record<string, string>>;
  /** the host badge's pill while it counts the reply, and the launcher's badge */
  badges: Record<string, Record<string, string>>;
  boxes: Record<string, unknown>;
  panel: Buffer;
  launcher: Buffer;
}

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function stylesOf(page: Page, parts: Record<string, string>): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [name, selector] of Object.entries(parts)) {
    out[name] = await page
      .locator(selector)
      .first()
      .evaluate((el, props) => {
        const style = getComputedStyle(el);
        return Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]));
      }, PROPS);
  }
  return out;
}

/**
 * A new visitor on a page with `css` asks a question, closes the chat before the reply
 * lands (both badges count it), opens it again and reads it: what the widget looks like.
 */
async function widgetOn(css: string, page: Page): Promise<Look> {
  const host = await startHostSite({ '/': hostPage(widgetTag(site.heed.url)), '/host.css': css });
  hosts.push(host);
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Open chat' }).click();
  // the reply lands once the panel is closed, so both badges count it
  const closed = gate();
  site.heed.model.script({ text: REPLY, until: closed.opened });
  await site.send(page, QUESTION);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open chat' }).waitFor();
  closed.open();
  // the reply complete and unread: the badges settle on the unviewed colour (live is another)
  await page.locator('heed-unread-badge:not([idle]) [part=badge][data-state=unviewed]').waitFor();
  await page.locator('heed-launcher .badge[data-state=unviewed]').waitFor();
  const badges = await stylesOf(page, { host: 'heed-unread-badge [part=badge]', launcher: 'heed-launcher .badge' });

  await page.getByRole('button', { name: 'Open chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chat' });
  await dialog.getByText('pick-up point').waitFor();
  // settled: read (badges idle, the row back to its default look), sent, connected
  await page.locator('heed-unread-badge[idle]').waitFor({ state: 'attached' });
  // (the compact panel keeps the list behind ☰: the row is read, not seen)
  await page.locator('heed-conversation-row .row[data-state=default]').waitFor({ state: 'attached' });
  await page.locator('heed-message-list .message.user:not(.pending)').waitFor();
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();

  const launcher = page.locator('heed-launcher button');
  return {
    styles: await stylesOf(page, PARTS),
    badges,
    boxes: { panel: await dialog.boundingBox(), launcher: await launcher.boundingBox() },
    panel: await dialog.screenshot({ animations: 'disabled', caret: 'hide' }),
    launcher: await launcher.screenshot({ animations: 'disabled', caret: 'hide' }),
  };
}

async function look(css: string): Promise<Look> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  // a wait that never ends names its locator before the test's own timeout
  page.setDefaultTimeout(12_000);
  page.on('pageerror', (err) => console.error('[page]', err.message));
  try {
    return await widgetOn(css, page);
  } finally {
    await page.close();
  }
}

let plain: Look;
beforeAll(async () => {
  plain = await look('');
});

test('the pixel comparison sees what it compares: Chromium screenshots decode to their colours', async () => {
  const page = await site.browser.newPage({ viewport: { width: 40, height: 20 } });
  await page.setContent(
    '<body style="margin:0;display:flex"><div style="width:20px;height:20px;background:rgb(200,10,30)"></div><div style="width:20px;height:20px;background:rgb(0,128,255)"></div></body>',
  );
  const png = await page.screenshot();
  await page.close();
  const { width, height, data } = decodePng(png);
  expect({ width, height }).toEqual({ width: 40, height: 20 });
  expect([...data.subarray(0, 4)]).toEqual([200, 10, 30, 255]);
  expect([...data.subarray((10 * 40 + 30) * 4, (10 * 40 + 30) * 4 + 4)]).toEqual([0, 128, 255, 255]);
});

test.each(Object.entries(HOSTILE))('a host page with %s leaves the widget as it is on a plain page', async (_, css) => {
  const hostile = await look(css);
  expect(hostile.styles).toEqual(plain.styles);
  expect(hostile.badges).toEqual(plain.badges);
  expect(hostile.boxes).toEqual(plain.boxes);
  expect(pixelDiff(plain.panel, hostile.panel).ratio).toBeLessThan(0.001);
  expect(pixelDiff(plain.launcher, hostile.launcher).ratio).toBeLessThan(0.001);
});

test('a theme through custom properties and parts still changes what it names, on a 62.5 % root', async () => {
  const themed = await look(`
    html { font-size: 62.5% }
    :root { --heed-accent: #c00 }
    heed-widget { --heed-font-size: 18px; --heed-font-family: Georgia, serif }
    heed-widget::part(launcher) { box-shadow: none }`);
  const { textbox, 'visitor bubble': bubble, row, heading, send, launcher } = themed.styles;
  expect([textbox!['font-size'], bubble!['font-size'], row!['font-size']]).toEqual(['18px', '18px', '18px']);
  expect(textbox!['font-family']).toBe('Georgia, serif');
  // the title has a size of its own (--heed-heading-font-size)
  expect(heading!['font-size']).toBe(plain.styles.heading!['font-size']);
  expect([send!['background-color'], launcher!['background-color'], launcher!['box-shadow']]).toEqual([
    'rgb(204, 0, 0)',
    'rgb(204, 0, 0)',
    'none',
  ]);
  // and the screenshots show it (the comparison above is not blind)
  expect(pixelDiff(plain.panel, themed.panel).ratio).toBeGreaterThan(0.01);
  expect(pixelDiff(plain.launcher, themed.launcher).ratio).toBeGreaterThan(0.01);
});

test("inline, the chat fills the container it is given, whatever the page's box-sizing, type and direction", async () => {
  const css = `* { box-sizing: content-box } html { font-size: 62.5%; line-height: 2.4; text-align: center }
    #chat { width: 700px; height: 520px; margin: 8px; padding: 10px; border: 3px solid #333 }`;
  const html =
    `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>Help</title><link rel="stylesheet" href="/host.css"></head>` +
    `<body><div id="chat"></div>${widgetTag(site.heed.url, { mode: 'inline', container: '#chat' })}</body></html>`;
  const host = await startHostSite({ '/': html, '/host.css': css });
  hosts.push(host);
  const page = await site.browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.goto(host.url);
  const region = page.getByRole('region', { name: 'Chat' });
  await region.waitFor();
  // the container's content box: inside its 3 px border and 10 px padding
  const container = (await page.locator('#chat').boundingBox())!;
  expect(await region.boundingBox()).toEqual({ x: container.x + 13, y: container.y + 13, width: 700, height: 520 });
  const textbox = page.getByRole('textbox', { name: 'Message' });
  const type = () =>
    textbox.evaluate((el) => ['font-size', 'line-height', 'text-align', 'direction'].map((p) => getComputedStyle(el).getPropertyValue(p)));
  // the widget's own type (a text box is never under 16 px: phones zoom into smaller ones), not the page's
  expect(await type()).toEqual(['16px', 'normal', 'start', 'ltr']);
  // the one switch for a right-to-left widget, where locales will set it
  await page.locator('heed-widget').evaluate((el) => el.setAttribute('dir', 'rtl'));
  expect((await type())[3]).toBe('rtl');
  await page.close();
});
