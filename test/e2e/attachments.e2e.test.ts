import { existsSync, createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exportData } from '../../api/src/db/transfer/export-data.ts';
import { importData } from '../../api/src/db/transfer/import-data.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';
import { createDb } from '../../api/src/db/client.ts';
import { seriousA11yViolations } from '../support/browser.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { createTestDatabase } from '../support/database.ts';
import { cspViolations, DemoSite, recordCspViolations } from '../support/demo-site.ts';
import { startHostSite, widgetTag, type HostSite } from '../support/host-site.ts';
import { photoJpeg, screenshotPng } from '../support/image-fixtures.ts';
import { textPdf } from '../support/text-pdf.ts';

/**
 * Attachments end to end, in real Chromium, the way a customer runs Heed (production mode, the
 * shop on another origin under a CSP that allows images from Heed and no `blob:` or `data:`):
 * a visitor pastes a screenshot and asks about it → the model is shown the image beside the
 * words and the reply streams → an operator sees the image in the transcript and replies with
 * a PDF the visitor opens → files are not served to anyone else → an SVG and an oversized
 * photo are refused with why, the draft kept → the attachment survives export and import.
 * Needs `npm run build:widget && npm run build:console` first (`npm test` does both).
 */
const site = DemoSite.use({ ATTACHMENT_MAX_BYTES: String(25 * 1024 * 1024) });
let host: HostSite;
let ana: TestOperator;
const failures: string[] = [];

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/console/index.html', import.meta.url)))
    throw new Error('Build the console first: npm run build:console');
  const api = new URL(site.heed.url).origin;
  const csp = `default-src 'self'; script-src 'self' ${api}; connect-src ${api}; style-src 'self'; img-src 'self' ${api}`;
  host = await startHostSite(
    {
      '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bike shop</title></head><body><h1>Bikes</h1>${widgetTag(site.heed.url)}</body></html>`,
    },
    { host: 'localhost', csp },
  );
  await site.heed.services.db.site.update({ where: { key: 'demo' }, data: { allowedOrigins: [host.url], attachmentMaxBytes: 200 * 1024 } });
  site.heed.services.sites.clear();
  ana = await signedInOperator(site.heed.services, site.heed.url, { name: 'Ana' });
});
afterAll(async () => {
  await host?.close();
  expect(failures).toEqual([]);
});

/** Pastes `bytes` as a file from the clipboard into the widget's message box, as a screenshot tool does. */
async function paste(page: Page, name: string, type: string, bytes: Buffer) {
  await page.getByRole('textbox', { name: 'Message' }).evaluate(
    (box, f) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, composed: true, cancelable: true }));
    },
    { name, type, b64: bytes.toString('base64') },
  );
}

/** An image has loaded (from Heed, under the host page's CSP). */
const loaded = (img: ReturnType<Page['locator']>) => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

test('a pasted screenshot reaches the model and the team; a file comes back; nobody else can fetch either', async () => {
  const { db } = site.heed.services;
  site.heed.model.setResponder(() => ({ text: 'That is a declined card: try another one.' }));
  const visitor = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
  await recordCspViolations(visitor);
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();

  const shot = await screenshotPng(320, 200);
  const box = visitor.getByRole('textbox', { name: 'Message' });
  await box.fill('What does this error mean?');
  await paste(visitor, 'error.png', 'image/png', shot);
  await visitor.getByRole('button', { name: 'Remove error.png' }).waitFor();
  await visitor.getByRole('progressbar', { name: 'Uploading error.png' }).waitFor({ state: 'detached' });
  await box.press('Enter');
  await visitor.getByText('That is a declined card: try another one.').waitFor();

  // the model was shown the image right after the words
  const asked = site.heed.model.requests
    .map((r) => (r.body.messages as { role: string; content: unknown }[]).at(-1)!)
    .find((m) => Array.isArray(m.content));
  expect(asked?.content).toEqual([
    { type: 'text', text: 'What does this error mean?\n\n[Attached image: error.png]' },
    { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } },
  ]);

  // the thread shows it from Heed, enlarges it, and a screen reader hears its name
  const thumb = visitor.getByRole('button', { name: 'Enlarge error.png' });
  await expect.poll(() => loaded(thumb.locator('img'))).toBe(true);
  await thumb.click();
  const enlarged = visitor.locator('dialog[open]');
  await enlarged.getByRole('img', { name: 'error.png' }).waitFor();
  await visitor.keyboard.press('Escape');
  await enlarged.waitFor({ state: 'detached' });
  await expect.poll(() => thumb.evaluate((el) => el.matches(':focus'))).toBe(true);
  expect(await seriousA11yViolations(visitor)).toEqual([]);

  // the operator sees it in the transcript and replies with a PDF
  const { id: conversationId } = await db.conversation.findFirstOrThrow({ select: { id: true }, orderBy: { createdAt: 'desc' } });
  const consolePage = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  consolePage.on('pageerror', (err) => failures.push(`console pageerror ${err.message}`));
  const [name, value] = ana.cookie.split('=') as [string, string];
  await consolePage.context().addCookies([{ name, value, url: site.heed.url }]);
  await consolePage.goto(`${site.heed.url}/admin/#/conversations/${conversationId}`);
  const transcript = consolePage.locator('heed-console-transcript');
  const seen = transcript.getByRole('button', { name: 'Enlarge error.png' });
  await expect.poll(() => loaded(seen.locator('img'))).toBe(true);
  await consolePage.getByRole('button', { name: 'Take over' }).click();
  await consolePage
    .locator('input[type=file]')
    .setInputFiles({ name: 'guide.pdf', mimeType: 'application/pdf', buffer: Buffer.from(textPdf([['Card guide']])) });
  await consolePage.getByRole('button', { name: 'Remove guide.pdf' }).waitFor();
  const reply = consolePage.getByRole('textbox', { name: 'Reply' });
  await reply.fill('Here is our card guide.');
  await expect.poll(async () => (await db.attachment.count({ where: { conversationId, operatorId: ana.id } })) === 1).toBe(true);
  await reply.press('Control+Enter');
  await transcript.getByText('Here is our card guide.').waitFor();

  // the visitor opens it
  const link = visitor.getByRole('link', { name: /guide\.pdf/ });
  const href = await link.getAttribute('href');
  const pdf = await fetch(href!);
  expect(pdf.status).toBe(200);
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  expect(await cspViolations(visitor)).toEqual([]);

  // nobody else: without the file's key, or from another visitor's session, both files are missing
  const files = await db.attachment.findMany({ where: { conversationId }, select: { id: true } });
  expect(files).toHaveLength(2);
  const stranger = await site.heed.visitor();
  for (const { id } of files) {
    expect((await fetch(`${site.heed.url}/files/${id}`, { headers: { authorization: `Bearer ${stranger.token}` } })).status).toBe(404);
    expect((await fetch(`${site.heed.url}/files/${id}?k=${'x'.repeat(22)}`)).status).toBe(404);
  }
  await consolePage.close();
  await visitor.close();
});

test('an SVG and an oversized photo are refused with why, and the draft stays', async () => {
  const visitor = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  visitor.on('pageerror', (err) => failures.push(`visitor pageerror ${err.message}`));
  await visitor.goto(host.url);
  await visitor.getByRole('button', { name: 'Open chat' }).click();
  const box = visitor.getByRole('textbox', { name: 'Message' });
  await box.fill('my words stay');
  await paste(visitor, 'diagram.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
  await visitor
    .getByText(/diagram\.svg can't be attached/)
    .first()
    .waitFor();
  await paste(visitor, 'holiday.jpg', 'image/jpeg', await photoJpeg(1600, 1200));
  await visitor
    .getByText(/holiday\.jpg is .*files can be up to 200 kB/i)
    .first()
    .waitFor();
  expect(await box.inputValue()).toBe('my words stay');
  // and a server that is asked anyway says the same: the type is read from the bytes
  const sneaky = await site.heed.visitor();
  const res = await fetch(`${site.heed.url}/files?conversationId=${await sneaky.conversation()}&name=logo.png`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sneaky.token}`, 'content-type': 'application/octet-stream' },
    body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  });
  expect(await res.json()).toMatchObject({ error: { code: 'file_type_refused', detected: 'SVG' } });
  await visitor.close();
});

test('attachments survive an export and an import into another database and store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'heed-journey-export-'));
  const target = await createTestDatabase();
  const targetDb = createDb(target.url, { max: 2 });
  const targetFiles = folderStore(join(dir, 'files'));
  try {
    const file = join(dir, 'export.jsonl');
    const out = createWriteStream(file);
    await exportData(site.heed.database.url, out, site.heed.services.files);
    out.end();
    await finished(out);
    await importData(target.url, createReadStream(file), targetFiles);
    const before = await site.heed.services.db.attachment.findMany({ select: { id: true, storeKey: true }, orderBy: { id: 'asc' } });
    expect(before.length).toBeGreaterThan(0);
    for (const a of before) {
      const copy = await targetDb.attachment.findUniqueOrThrow({ where: { id: a.id }, select: { storeKey: true } });
      expect(await targetFiles.get(copy.storeKey)).toEqual(await site.heed.services.files.get(a.storeKey));
    }
  } finally {
    await targetDb.$disconnect();
    await target.drop();
    await targetFiles.close();
    await rm(dir, { recursive: true, force: true });
  }
});
