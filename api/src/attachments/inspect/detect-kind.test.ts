import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { textPdf } from '../../../../test/support/text-pdf.ts';
import { detectKind, markupOf } from './detect-kind.ts';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const pixel = () => sharp({ create: { width: 2, height: 2, channels: 3, background: '#123456' } });

test('images and PDFs are known by their bytes', async () => {
  expect(await detectKind(await pixel().png().toBuffer())).toEqual({ ok: true, kind: 'png' });
  expect(await detectKind(await pixel().jpeg().toBuffer())).toEqual({ ok: true, kind: 'jpeg' });
  expect(await detectKind(await pixel().webp().toBuffer())).toEqual({ ok: true, kind: 'webp' });
  expect(await detectKind(await pixel().gif().toBuffer())).toEqual({ ok: true, kind: 'gif' });
  expect(await detectKind(textPdf([['Invoice 1042']]))).toEqual({ ok: true, kind: 'pdf' });
});

test('SVG is refused however it opens: plain, with an XML declaration, a byte-order mark, a comment or a doctype', async () => {
  const svgs = [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '\uFEFF<svg xmlns="http://www.w3.org/2000/svg"/>',
    '<!-- drawn by hand -->\n  <SVG xmlns="http://www.w3.org/2000/svg"/>',
    '\uFEFF <?xml version="1.0"?><!-- a --><!-- b --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg/>',
    '<?xml version="1.0"?><!DOCTYPE x [ <!ENTITY a "b"> ]>\n<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
  ];
  for (const svg of svgs) expect(await detectKind(utf8(svg)), svg).toEqual({ ok: false, detected: 'SVG' });
});

test('HTML is refused: a doctype, <html>, or a page that opens with a script', async () => {
  const pages = [
    '<!DOCTYPE html><title>x</title>',
    '\n\n<html><body>hi</body></html>',
    '<script>alert(document.cookie)</script>',
    '\uFEFF<!-- saved page --><HTML>',
    '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
    '<iframe src="https://example.com">',
  ];
  for (const page of pages) expect(await detectKind(utf8(page)), page).toEqual({ ok: false, detected: 'HTML' });
});

test('text that merely mentions markup, or XML that is not SVG, is text', async () => {
  expect(await detectKind(utf8('My page shows <svg> badly, see <script> tag.'))).toEqual({ ok: true, kind: 'text' });
  expect(await detectKind(utf8('<?xml version="1.0"?>\n<order id="1042"><item>Tent</item></order>'))).toEqual({ ok: true, kind: 'text' });
  expect(markupOf('<abbr>HTML</abbr> is not the page start')).toBe(null);
});

test('UTF-8 text with emoji and accents is text; invalid UTF-8, NUL bytes or many control characters are not', async () => {
  expect(await detectKind(utf8('Order 1042 arrived broken 😞 — café, Straße\r\n\tline two\f'))).toEqual({ ok: true, kind: 'text' });
  expect(await detectKind(utf8('a\0b'))).toEqual({ ok: false, detected: 'unknown' });
  expect(await detectKind(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toEqual({ ok: false, detected: 'unknown' }); // "café" in Latin-1
  expect(await detectKind(utf8(`log ${'\u0007'.repeat(5)} bells`))).toEqual({ ok: false, detected: 'unknown' });
  expect(await detectKind(utf8(`${'a line of a terminal log\n'.repeat(10)}\u001b[0m`))).toEqual({ ok: true, kind: 'text' });
});

test('other binary types are refused with what they are; random bytes are "unknown"', async () => {
  // a ZIP's local file header and end record, as any archiver writes them
  const zip = Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]),
    Buffer.from('a.txt', 'latin1'),
    Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array(18).fill(0)]),
  ]);
  expect(await detectKind(zip)).toEqual({ ok: false, detected: 'ZIP' });
  const mp4 = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypmp42', 'latin1'), 0, 0, 0, 0, ...Buffer.from('mp42isom', 'latin1')]);
  expect(await detectKind(mp4)).toEqual({ ok: false, detected: 'MP4' });
  // 0x00 and 0xff lead: no signature, not UTF-8
  expect(await detectKind(Buffer.concat([Buffer.from([0x00, 0xff]), randomBytes(4096)]))).toEqual({ ok: false, detected: 'unknown' });
});
