import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { jpegWithGps, PRIVATE_MARKERS, pngBomb } from '../../../../test/support/image-fixtures.ts';
import { textPdf } from '../../../../test/support/text-pdf.ts';
import { ATTACHMENT_KIND_NAMES } from '../../shared/attachment-kinds.ts';
import { inspectUpload } from './inspect-upload.ts';

const ALL = ATTACHMENT_KIND_NAMES;
const IMAGES = ['png', 'jpeg', 'webp', 'gif'] as const;
const utf8 = (s: string) => Buffer.from(s, 'utf8');

test('a PNG named .jpg is stored as a PNG named .png, with its size and the hash of the stored bytes', async () => {
  const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#abcdef' } })
    .png()
    .toBuffer();
  const out = await inspectUpload({ bytes: png, name: 'C:\\shots\\x.jpg', allowed: ALL });
  if (!out.ok) throw new Error(out.message);
  expect(out).toMatchObject({ kind: 'png', mime: 'image/png', name: 'x.png', width: 30, height: 20, text: null });
  expect(out.sha256).toBe(createHash('sha256').update(out.bytes).digest('hex'));
});

test('a photo is stored upright without its EXIF or GPS position', async () => {
  const out = await inspectUpload({
    bytes: await jpegWithGps({ width: 60, height: 40, orientation: 6 }),
    name: 'IMG_0001.JPG',
    allowed: ALL,
  });
  if (!out.ok) throw new Error(out.message);
  expect(out).toMatchObject({ kind: 'jpeg', mime: 'image/jpeg', name: 'IMG_0001.JPG', width: 40, height: 60 });
  expect(PRIVATE_MARKERS.filter((marker) => out.bytes.includes(marker, 0, 'latin1'))).toEqual([]);
  expect((await sharp(out.bytes).metadata()).exif).toBeUndefined();
});

test('SVG and HTML are refused whatever their name, with a message naming what can be attached', async () => {
  const svg = await inspectUpload({ bytes: utf8('<?xml version="1.0"?>\n<svg onload="alert(1)"/>'), name: 'logo.png', allowed: ALL });
  expect(svg).toEqual({
    ok: false,
    code: 'file_type_refused',
    detected: 'SVG',
    message: 'Only PNG, JPEG, WebP, GIF, PDF and plain text files can be attached; this is an SVG image.',
  });
  const html = await inspectUpload({ bytes: utf8('\uFEFF<!doctype html><script>alert(1)</script>'), name: 'notes.txt', allowed: ALL });
  expect(html).toMatchObject({ code: 'file_type_refused', detected: 'HTML', message: expect.stringMatching(/; this is an HTML page\.$/) });
});

test('a GIF with a page appended is cleaned so no script survives; a GIF header before a page alone is damaged', async () => {
  const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a0' } })
    .gif()
    .toBuffer();
  const polyglot = Buffer.concat([gif, utf8('<html><script>alert(document.domain)</script></html>')]);
  const out = await inspectUpload({ bytes: polyglot, name: 'cat.gif', allowed: ALL });
  if (!out.ok) throw new Error(out.message);
  expect(out.kind).toBe('gif');
  expect(out.bytes.includes('<script')).toBe(false);
  expect(out.bytes.includes('<html')).toBe(false);
  const fake = await inspectUpload({ bytes: utf8('GIF89a<html><script>alert(1)</script></html>'), name: 'x.gif', allowed: ALL });
  expect(fake).toMatchObject({ ok: false, code: 'file_damaged' });
});

test('archives, videos and unknown bytes are refused with what they are', async () => {
  const zip = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array(18).fill(0)]);
  expect(await inspectUpload({ bytes: zip, name: 'photos.png', allowed: ALL })).toMatchObject({
    code: 'file_type_refused',
    detected: 'ZIP',
    message: 'Only PNG, JPEG, WebP, GIF, PDF and plain text files can be attached; this is a file of type ZIP.',
  });
  const unknown = await inspectUpload({ bytes: Buffer.concat([Buffer.from([0, 0xff]), randomBytes(1000)]), name: 'a.txt', allowed: ALL });
  expect(unknown).toMatchObject({
    code: 'file_type_refused',
    detected: 'unknown',
    message: 'Only PNG, JPEG, WebP, GIF, PDF and plain text files can be attached; the type of this file could not be recognised.',
  });
});

test("a kind the site does not take is refused, naming the site's own kinds", async () => {
  const out = await inspectUpload({ bytes: Buffer.from(textPdf([['Invoice']])), name: 'invoice.pdf', allowed: IMAGES });
  expect(out).toEqual({
    ok: false,
    code: 'file_type_refused',
    detected: 'PDF',
    message: 'Only PNG, JPEG, WebP and GIF files can be attached; this is a PDF file.',
  });
  const text = await inspectUpload({ bytes: utf8('hello'), name: 'a.txt', allowed: ['pdf'] });
  expect(text).toMatchObject({ detected: 'plain text', message: 'Only PDF files can be attached; this is a plain text file.' });
});

test('a PDF is stored as it came with its words; a damaged one is refused', async () => {
  const pdf = Buffer.from(textPdf([['Order 1042', 'Two tent poles missing.']]));
  const out = await inspectUpload({ bytes: pdf, name: 'order', allowed: ALL });
  expect(out).toMatchObject({ ok: true, kind: 'pdf', mime: 'application/pdf', name: 'order.pdf', width: null, height: null });
  expect(out.ok && out.bytes.equals(pdf)).toBe(true);
  expect(out.ok && out.text).toBe('Order 1042\nTwo tent poles missing.');
  expect(await inspectUpload({ bytes: utf8('%PDF-1.7\n%garbage'), name: 'x.pdf', allowed: ALL })).toMatchObject({
    code: 'file_damaged',
    message: expect.stringMatching(/PDF/),
  });
});

test('UTF-8 text with emoji is plain text; text with NUL bytes is not', async () => {
  const bytes = utf8('Tent arrived broken 😞\nOrder 1042');
  const out = await inspectUpload({ bytes, name: 'notes.md', allowed: ALL });
  expect(out).toMatchObject({ ok: true, kind: 'text', mime: 'text/plain', name: 'notes.md', text: 'Tent arrived broken 😞\nOrder 1042' });
  expect(out.ok && out.bytes.equals(bytes)).toBe(true);
  expect(await inspectUpload({ bytes: utf8('Order 1042\0\0 arrived'), name: 'notes.txt', allowed: ALL })).toMatchObject({
    code: 'file_type_refused',
    detected: 'unknown',
  });
  expect(await inspectUpload({ bytes: utf8('MZ\0\0a program'), name: 'setup.txt', allowed: ALL })).toMatchObject({ detected: 'EXE' });
});

test('an empty file, a site that takes no files, and a decompression bomb are refused', async () => {
  expect(await inspectUpload({ bytes: Buffer.alloc(0), name: 'a.png', allowed: ALL })).toEqual({
    ok: false,
    code: 'file_empty',
    message: 'This file is empty.',
  });
  expect(await inspectUpload({ bytes: utf8('hi'), name: 'a.txt', allowed: [] })).toMatchObject({ code: 'attachments_off' });
  expect(await inspectUpload({ bytes: pngBomb(20_000, 20_000), name: 'bomb.png', allowed: ALL })).toMatchObject({
    code: 'file_too_large',
    message: expect.stringMatching(/20000 × 20000 pixels/),
  });
});
