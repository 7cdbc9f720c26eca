import { expect, test } from 'vitest';
import { chunkSections } from './chunk-sections.ts';

test('sections become excerpts under their heading, cut at lines, then sentences, never over the bound', () => {
  const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} about returns.`).join(' ');
  const excerpts = chunkSections(
    [
      { heading: 'Costs', text: 'Free above 50 EUR.\nBelow, 4.90 EUR.' },
      { heading: 'Returns', text: long },
    ],
    200,
  );
  expect(excerpts[0]).toEqual({ heading: 'Costs', text: 'Free above 50 EUR.\nBelow, 4.90 EUR.' });
  expect(excerpts.slice(1).every((e) => e.heading === 'Returns' && e.text.length <= 200 && e.text.endsWith('.'))).toBe(true);
  expect(
    excerpts
      .slice(1)
      .map((e) => e.text)
      .join(' '),
  ).toBe(long);
});
