import { expect, test } from 'vitest';
import { textPdf } from '../../../test/support/text-pdf.ts';
import { readKnowledgeFile } from './read-file.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

test('Markdown is read at its headings, its marks removed and list items kept apart', async () => {
  const read = await readKnowledgeFile(
    'gift-cards.md',
    bytes('# Gift cards\n\nValid for **two years**, see [terms](https://x).\n\n## Balance\n\n* online\n* in store\n'),
  );
  expect(read).toEqual({
    type: 'markdown',
    title: 'Gift cards',
    sections: [
      { heading: 'Gift cards', text: 'Valid for two years, see terms.' },
      { heading: 'Balance', text: '- online\n- in store' },
    ],
  });
});

test('HTML is read like a crawled page, even without <html> and <body>; text by its paragraphs', async () => {
  const html = await readKnowledgeFile(
    'care.html',
    bytes('<!doctype html><title>Care</title><h1>Care</h1><p>Wash cold with a mild soap.</p>'),
  );
  expect(html).toMatchObject({ type: 'html', title: 'Care', sections: [{ text: 'Wash cold with a mild soap.' }] });
  const text = await readKnowledgeFile('notes.txt', bytes('Line one\ncontinues.\n\nSecond paragraph.'));
  expect(text).toEqual({ type: 'text', title: 'notes', sections: [{ heading: 'notes', text: 'Line one continues.\nSecond paragraph.' }] });
});

test('a PDF is read page by page, whatever its name says; a file that is neither PDF nor text is refused', async () => {
  const pdf = await readKnowledgeFile('manual.txt', textPdf([['Rentals', 'Canoes: 450 NOK a day.'], ['Kayaks: 300 NOK a day.']]));
  expect(pdf).toEqual({
    type: 'pdf',
    title: 'manual',
    sections: [
      { heading: 'manual — page 1', text: 'Rentals Canoes: 450 NOK a day.' },
      { heading: 'manual — page 2', text: 'Kayaks: 300 NOK a day.' },
    ],
  });
  await expect(readKnowledgeFile('photo.pdf', new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).rejects.toThrow(/not a PDF and not UTF-8 text/);
  await expect(readKnowledgeFile('broken.pdf', bytes('%PDF-1.4 nothing else'))).rejects.toThrow(/could not be read/);
  await expect(readKnowledgeFile('bin.txt', bytes('a\0b'))).rejects.toThrow(/binary/);
});
