import { expect, test } from 'vitest';
import { cleanFileName, FILE_NAME_MAX } from './clean-name.ts';

test('only the last segment of a Windows or Unix path is kept', () => {
  expect(cleanFileName('C:\\Users\\ann\\Desktop\\Screenshot 2025-03-01.png', 'png')).toBe('Screenshot 2025-03-01.png');
  expect(cleanFileName('../../etc/passwd', 'text')).toBe('passwd.txt');
  expect(cleanFileName('photos/holiday\\beach.JPG', 'jpeg')).toBe('beach.JPG');
});

test('bidi overrides, isolates, zero-width and control characters are removed', () => {
  // with the override, "invoice\u202Egnp.exe" shows as "invoiceexe.png"
  expect(cleanFileName('invoice\u202Egnp.exe', 'png')).toBe('invoicegnp.png');
  expect(cleanFileName('a\u2066b\u2069c\u200Bd\u200De\uFEFF.pdf', 'pdf')).toBe('abcde.pdf');
  expect(cleanFileName('line\nbreak\u0007s\ttab.txt', 'text')).toBe('line breaks tab.txt');
});

test('names are NFC with white space collapsed, and trimmed of leading dots', () => {
  expect(cleanFileName('Cafe\u0301   menu \u00A0 2025.pdf', 'pdf')).toBe('Café menu 2025.pdf');
  expect(cleanFileName('.env', 'text')).toBe('env.txt');
  expect(cleanFileName('  report  .pdf', 'pdf')).toBe('report.pdf');
});

test('the extension follows the bytes: replaced when it names another type, added when missing', () => {
  expect(cleanFileName('x.jpg', 'png')).toBe('x.png');
  expect(cleanFileName('report', 'pdf')).toBe('report.pdf');
  expect(cleanFileName('notes.html', 'text')).toBe('notes.txt');
  expect(cleanFileName('logo.svg', 'png')).toBe('logo.png');
  expect(cleanFileName('orders.csv', 'text')).toBe('orders.csv');
  expect(cleanFileName('photo.jpeg', 'jpeg')).toBe('photo.jpeg');
  expect(cleanFileName('v1.final', 'pdf')).toBe('v1.final.pdf');
  expect(cleanFileName('Mr. Smith', 'text')).toBe('Mr. Smith.txt');
});

test('a name with nothing left gets a default for its kind', () => {
  expect(cleanFileName('', 'png')).toBe('image.png');
  expect(cleanFileName('C:\\folder\\', 'jpeg')).toBe('image.jpg');
  expect(cleanFileName('\u202E\u200B', 'pdf')).toBe('document.pdf');
  expect(cleanFileName('.txt', 'text')).toBe('file.txt');
});

test('a long name is cut to 200 characters between whole characters, its extension kept', () => {
  const long = cleanFileName(`${'a'.repeat(300)}.pdf`, 'pdf');
  expect(long).toBe(`${'a'.repeat(FILE_NAME_MAX - 4)}.pdf`);
  const emoji = cleanFileName(`${'👍🏽'.repeat(100)}.png`, 'png');
  expect(emoji.length).toBeLessThanOrEqual(FILE_NAME_MAX);
  expect(emoji).toMatch(/^(?:👍🏽)+\.png$/u);
});
