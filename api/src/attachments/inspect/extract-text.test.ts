import { expect, test } from 'vitest';
import { textPdf } from '../../../../test/support/text-pdf.ts';
import { ATTACHMENT_TEXT_MAX_CHARS, extractText, TEXT_CUT_MARKER } from './extract-text.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

test("a PDF's words come out page by page", async () => {
  const pdf = textPdf([['Order 1042', 'The tent pole arrived broken.'], ['Photos attached separately.']]);
  expect(await extractText(pdf, 'pdf')).toEqual({
    ok: true,
    text: 'Order 1042\nThe tent pole arrived broken.\n\nPhotos attached separately.',
  });
});

test('a long PDF is cut after a whole word to 20,000 characters, and marked as cut', async () => {
  const page = Array.from({ length: 40 }, (_, i) => `Line ${i} of the returns policy, every word of it.`);
  const whole = Array(200).fill(page.join('\n')).join('\n\n');
  const out = await extractText(textPdf(Array(200).fill(page)), 'pdf');
  if (!out.ok) throw new Error(out.message);
  expect(out.text.length).toBeLessThanOrEqual(ATTACHMENT_TEXT_MAX_CHARS);
  expect(out.text.endsWith(TEXT_CUT_MARKER)).toBe(true);
  const kept = out.text.slice(0, -TEXT_CUT_MARKER.length);
  expect(kept.length).toBeGreaterThan(ATTACHMENT_TEXT_MAX_CHARS * 0.9);
  expect(whole.startsWith(kept)).toBe(true);
  expect(whole[kept.length]).toMatch(/\s/);
});

test('a PDF that pdf.js cannot parse is damaged; one without any text gives no words', async () => {
  expect(await extractText(utf8('%PDF-1.4 nothing else'), 'pdf')).toMatchObject({ ok: false, code: 'file_damaged' });
  const whole = textPdf([['Warranty: two years.']]);
  expect(await extractText(whole.subarray(0, whole.length / 3), 'pdf')).toMatchObject({ ok: false, code: 'file_damaged' });
  expect(await extractText(textPdf([[]]), 'pdf')).toEqual({ ok: true, text: '' });
});

test('a PDF locked with a password is taken without its words', async () => {
  // a Standard security handler whose keys no empty password opens: pdf.js asks for the password
  const hex = (n: number) => `<${'ab'.repeat(n)}>`;
  const pdf = Buffer.from(textPdf([['Private']])).toString('latin1');
  const locked = pdf.replace(
    /trailer\n<< (.*?) >>/,
    `trailer\n<< $1 /Encrypt << /Filter /Standard /V 1 /R 2 /O ${hex(32)} /U ${hex(32)} /P -4 >> /ID [${hex(16)} ${hex(16)}] >>`,
  );
  expect(locked).not.toBe(pdf);
  expect(await extractText(Buffer.from(locked, 'latin1'), 'pdf')).toEqual({ ok: true, text: '' });
});

test('a text file is its UTF-8 words, emoji kept, byte-order mark and control characters gone, Windows line ends made plain', async () => {
  expect(await extractText(utf8('\uFEFFHello 👋\r\nWorld\u0007\r\n\r\n\r\n\r\nBye'), 'text')).toEqual({
    ok: true,
    text: 'Hello 👋\nWorld\n\nBye',
  });
});

test('a long text is cut at a word, marked; one long word is cut inside it, never inside an emoji', async () => {
  const words = await extractText(utf8('lorem ipsum '.repeat(5000)), 'text');
  expect(words.ok && words.text).toMatch(new RegExp(`(?:lorem|ipsum)${escapeRegExp(TEXT_CUT_MARKER)}$`));
  expect(words.ok && words.text.length).toBeLessThanOrEqual(ATTACHMENT_TEXT_MAX_CHARS);
  const emoji = await extractText(utf8('😀'.repeat(15000)), 'text');
  if (!emoji.ok) throw new Error(emoji.message);
  expect(emoji.text.length).toBeLessThanOrEqual(ATTACHMENT_TEXT_MAX_CHARS);
  expect(emoji.text.slice(0, -TEXT_CUT_MARKER.length)).toMatch(/^(?:😀)+$/u);
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
