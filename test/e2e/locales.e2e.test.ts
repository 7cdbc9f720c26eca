import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DemoSite } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { decodePng, type Rgba } from '../support/pixel-diff.ts';

/**
 * The widget in another language, as a visitor on a customer's page meets it (production
 * build, page on another origin): `data-locale="de"` names every control in German and
 * fetches only the German strings; `data-locale="ar"` mirrors the whole widget, checked by
 * geometry and by where the accent colour lands in screenshots, at a phone's and a
 * desktop's width. Screenshots are kept in test-results/locales/ for a look by eye.
 */
const site = DemoSite.use({ DEBOUNCE_MS: '200' });
const SHOTS = join(process.cwd(), 'test-results', 'locales');
const VIEWPORTS = [
  { width: 375, height: 740 },
  { width: 1280, height: 800 },
];

const hosts: HostSite[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A plain white page embedding the widget with `data-locale` (none when null), in a browser that asks for `browser`. */
async function visit(
  locale: string | null,
  viewport: { width: number; height: number },
  browser = 'en-US',
): Promise<{ page: Page; chunks: string[] }> {
  const tag = widgetTag(site.heed.url, locale ? { locale } : {});
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body style="margin:0;background:#fff"><p>Shop</p>${tag}</body></html>`;
  const host = await startHostSite({ '/': html });
  hosts.push(host);
  const page = await site.browser.newPage({ viewport, locale: browser });
  page.setDefaultTimeout(12_000);
  page.on('pageerror', (err) => console.error('[page]', err.message));
  const chunks: string[] = [];
  page.on('request', (r) => {
    const language = /\/widget-chunks\/locale-([a-z]+)-/.exec(r.url())?.[1];
    if (language) chunks.push(language);
  });
  await page.goto(host.url);
  return { page, chunks };
}

async function shot(page: Page, name: string): Promise<Rgba> {
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, `${name}.png`), png);
  return decodePng(png);
}

/** The columns (x) in rows `top`..`bottom` (and columns `left`..`right`) whose pixel is `rgb` (±8 a channel). */
function columnsOf(
  img: Rgba,
  rgb: number[],
  top: number,
  bottom: number,
  left = 0,
  right = img.width,
): { min: number; max: number; count: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = -1;
  let count = 0;
  for (let y = Math.max(0, Math.round(top)); y < Math.min(img.height, Math.round(bottom)); y++) {
    for (let x = Math.max(0, Math.round(left)); x < Math.min(img.width, Math.round(right)); x++) {
      const i = (y * img.width + x) * 4;
      if (rgb.every((c, k) => Math.abs(img.data[i + k]! - c) <= 8)) {
        min = Math.min(min, x);
        max = Math.max(max, x);
        count++;
      }
    }
  }
  return { min, max, count };
}

const rgbOf = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number);

for (const viewport of VIEWPORTS) {
  test(`data-locale="de" at ${viewport.width} px: every control has its German name, and only the German strings are fetched`, async () => {
    const { page, chunks } = await visit('de', viewport);
    await page.getByRole('button', { name: 'Chat öffnen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat' });
    await dialog.waitFor();
    expect(await page.locator('heed-widget').evaluate((el) => [el.getAttribute('lang'), el.getAttribute('dir')])).toEqual(['de', 'ltr']);
    await page.getByRole('status').filter({ hasText: 'Verbunden' }).waitFor();

    site.heed.model.script({ text: 'Ihre Bestellung ist unterwegs.' });
    const box = page.getByRole('textbox', { name: 'Nachricht' });
    await box.fill('Wo ist meine Bestellung?');
    await page.getByRole('button', { name: 'Senden' }).click();
    await dialog.getByText('Ihre Bestellung ist unterwegs.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Unterhaltung umbenennen' }).waitFor();
    await page.getByRole('button', { name: 'Übersicht' }).waitFor();
    // on a phone the list is a drawer; on a wide screen the compact panel widens for it
    await page.getByRole('button', { name: 'Unterhaltungen anzeigen' }).click();
    await page.getByRole('button', { name: 'Neue Unterhaltung' }).waitFor();
    await page.getByRole('list', { name: 'Unterhaltungen' }).waitFor();
    await page.getByRole('button', { name: 'Schließen', exact: true }).waitFor();
    // the strings came as their own chunk, and no other language's did
    expect(chunks).toEqual(['de']);
    await shot(page, `de-${viewport.width}`);
    await page.close();
  });

  test(`data-locale="ar" at ${viewport.width} px: launcher bottom-left, visitor's bubble on the left, send button left of the box, text right-aligned`, async () => {
    const { page, chunks } = await visit('ar', viewport);
    const { width, height } = viewport;
    const launcher = page.getByRole('button', { name: 'فتح المحادثة' });
    await launcher.waitFor();
    expect(await page.locator('heed-widget').evaluate((el) => [el.getAttribute('lang'), el.getAttribute('dir')])).toEqual(['ar', 'rtl']);
    expect(chunks).toEqual(['ar']);

    // geometry: the launcher sits 20 px from the bottom-left corner
    const l = (await launcher.boundingBox())!;
    expect({ x: Math.round(l.x), bottom: Math.round(height - l.y - l.height) }).toEqual({ x: 20, bottom: 20 });
    // pixels: the accent colour of the launcher shows in the bottom-left corner, and nowhere on the right
    const accent = rgbOf(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor));
    const closed = await shot(page, `ar-${width}-closed`);
    const corner = columnsOf(closed, accent, height - 76, height - 20);
    expect(corner.count).toBeGreaterThan(1500); // most of a 56 px disc (2,463 px)
    expect(corner.min).toBeGreaterThanOrEqual(20);
    expect(corner.max).toBeLessThan(76);

    await launcher.click();
    const dialog = page.getByRole('dialog', { name: 'المحادثة' });
    await dialog.waitFor();
    site.heed.model.script({ text: 'طلبك في الطريق وسيصل يوم الخميس.' });
    const box = page.getByRole('textbox', { name: 'الرسالة' });
    await box.fill('أين طلبي؟');
    await page.getByRole('button', { name: 'إرسال' }).click();
    await dialog.getByText('طلبك في الطريق وسيصل يوم الخميس.').waitFor({ timeout: 15_000 });
    await page.locator('heed-message-list .message.user:not(.pending)').waitFor();

    const geometry = await page.locator('heed-message-list').evaluate((list) => {
      const r = (el: Element) => el.getBoundingClientRect().toJSON() as DOMRect;
      const root = list.shadowRoot!;
      const range = document.createRange();
      range.selectNodeContents(root.querySelector('.assistant .md p')!);
      return {
        list: r(list),
        user: r(root.querySelector('.user')!),
        reply: r(root.querySelector('.assistant')!),
        replyLine: range.getClientRects()[0]!.toJSON() as DOMRect,
        direction: getComputedStyle(root.querySelector('.assistant')!).direction,
      };
    });
    // the visitor's bubble on the left, the reply on the right, each 12 px from the thread's edge
    expect(Math.round(geometry.user.left - geometry.list.left)).toBe(12);
    expect(Math.round(geometry.list.right - geometry.reply.right)).toBe(12);
    expect(geometry.user.right).toBeLessThan(geometry.reply.right);
    // right-aligned text: the reply's line ends at the bubble's padding on the right
    expect(geometry.direction).toBe('rtl');
    expect(Math.round(geometry.reply.right - geometry.replyLine.right)).toBe(12);

    const send = (await page.getByRole('button', { name: 'إرسال' }).boundingBox())!;
    const field = (await box.boundingBox())!;
    expect(send.x + send.width).toBeLessThanOrEqual(field.x);
    const open = await shot(page, `ar-${width}-open`);
    // pixels: in the composer's band the accent (the send button) is left of the box only (the
    // paperclip, at the line's start, is right of the box)
    const sendPixels = columnsOf(open, accent, send.y + 4, send.y + send.height - 4, 0, field.x + field.width);
    expect(sendPixels.count).toBeGreaterThan(500);
    expect(sendPixels.max).toBeLessThan(field.x);
    // and the visitor's dark bubble is drawn in the thread's left half (the sidebar's text, the same colour, is outside the thread)
    const bubble = rgbOf(await page.locator('heed-message-list .message.user').evaluate((el) => getComputedStyle(el).backgroundColor));
    const userPixels = columnsOf(open, bubble, geometry.user.top + 2, geometry.user.bottom - 2, geometry.list.left, geometry.list.right);
    expect(userPixels.count).toBeGreaterThan(300);
    expect(userPixels.min).toBeLessThan(geometry.list.left + 16);
    expect(userPixels.max).toBeLessThan(geometry.list.left + geometry.list.width / 2);

    if (width >= 640) {
      // the floating panel (its 1 px border included) hangs from the left corner, its sidebar on the right
      await site.showConversations(page);
      const panel = (await page.locator('heed-panel').boundingBox())!;
      expect(Math.round(panel.x)).toBe(20);
      const sidebar = (await page.locator('heed-sidebar').boundingBox())!;
      expect(sidebar.x).toBeGreaterThan(field.x);
    } else {
      // the drawer of conversations slides in from the right edge
      await page.getByRole('button', { name: 'عرض المحادثات' }).click();
      const drawer = (await page.locator('heed-sidebar.drawer').boundingBox())!;
      expect(Math.round(drawer.x + drawer.width)).toBe(width);
      await page.getByRole('button', { name: 'محادثة جديدة' }).waitFor();
      await shot(page, `ar-${width}-drawer`);
    }
    await page.close();
  });
}

test("without data-locale the widget speaks the browser's language, its region kept for dates (pt-BR → the pt strings)", async () => {
  const { page, chunks } = await visit(null, VIEWPORTS[1]!, 'pt-BR');
  await page.getByRole('button', { name: 'Abrir chat' }).click();
  await page.getByRole('textbox', { name: 'Mensagem' }).waitFor();
  expect(await page.locator('heed-widget').evaluate((el) => [el.getAttribute('lang'), el.getAttribute('dir')])).toEqual(['pt-BR', 'ltr']);
  expect(chunks).toEqual(['pt']);
  await page.close();
});
