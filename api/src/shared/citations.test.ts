import { expect, test } from 'vitest';
import { citedSources, linkableSource } from './citations.ts';

const excerpts = [
  { title: 'Shipping', url: 'https://shop.example/shipping' },
  { title: 'Returns', url: 'https://shop.example/returns' },
];

test('a reply’s citations, in the order first cited, with the excerpts’ own addresses', () => {
  expect(citedSources('Returns are free [2]. Shipping too [1][2], see [1, 2].', excerpts)).toEqual([
    { n: 2, title: 'Returns', url: 'https://shop.example/returns' },
    { n: 1, title: 'Shipping', url: 'https://shop.example/shipping' },
  ]);
  // a number past the excerpts, or a link the model wrote, cites nothing
  expect(citedSources('See [3] or [https://evil.example](https://evil.example).', excerpts)).toEqual([]);
  expect(citedSources('No citations here.', excerpts)).toEqual([]);
});

test('only http(s) addresses are links', () => {
  expect(linkableSource('https://shop.example/a')).toBe(true);
  expect(linkableSource('javascript:alert(1)')).toBe(false);
  expect(linkableSource('data:text/html,x')).toBe(false);
});
