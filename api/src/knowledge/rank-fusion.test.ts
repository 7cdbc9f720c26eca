import { expect, test } from 'vitest';
import { fuseRanks } from './rank-fusion.ts';

test('an excerpt both rankings place high beats one only a single ranking has first', () => {
  expect(
    fuseRanks(
      [
        ['a', 'b', 'c'],
        ['b', 'c', 'd'],
      ],
      new Set(),
      3,
    ),
  ).toEqual(['b', 'c', 'a']);
});

test('a snippet that matched at all wins over a page ranked first in both lists', () => {
  expect(fuseRanks([['page', 'snippet'], ['page']], new Set(['snippet']), 2)).toEqual(['snippet', 'page']);
});

test('the limit bounds what comes back, and no list means nothing', () => {
  expect(fuseRanks([['a', 'b', 'c']], new Set(), 1)).toEqual(['a']);
  expect(fuseRanks([], new Set(), 4)).toEqual([]);
});
