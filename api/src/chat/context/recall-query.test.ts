import { describe, expect, test } from 'vitest';
import { RECALL_TERMS_MAX, recallTerms, tsQueryText } from './recall-query.ts';

describe('recallTerms', () => {
  test('every message of the batch contributes, the first one included, even when a later one is long', () => {
    const long = Array.from({ length: 60 }, (_, i) => `filler${i}`).join(' ');
    const terms = recallTerms(['Any news about my walnut bookshelf?', long, 'ok thanks']);
    expect(terms).toHaveLength(RECALL_TERMS_MAX);
    expect(terms).toEqual(expect.arrayContaining(['news', 'walnut', 'bookshelf']));
  });

  test('terms are taken from each message in turn', () => {
    expect(recallTerms(['alpha bravo charlie', 'delta echo'])).toEqual(['alpha', 'delta', 'bravo', 'echo', 'charlie']);
  });

  test('short words, stop words and repeats are dropped, and case is folded as PostgreSQL’s simple configuration folds it', () => {
    expect(recallTerms(['The ORDER for my Café, the order!', 'Où est ma commande ? Cafe'])).toEqual(['order', 'commande', 'café', 'cafe']);
  });

  test('a batch of only small talk has no terms, so recall makes no query', () => {
    expect(recallTerms(['hi', 'ok', 'thanks!'])).toEqual([]);
  });
});

describe('tsQueryText', () => {
  test('any term matches, and long terms also match as prefixes', () => {
    expect(tsQueryText(['bookshelf', 'tv1', 'order'])).toBe("'bookshelf':* | 'tv1' | 'order':*");
  });

  test('tsquery syntax in a message never reaches the query: only letters and digits survive', () => {
    const terms = recallTerms(["walnut' | !x:* & (y) <-> 'z"]);
    expect(terms).toEqual(['walnut']);
    expect(tsQueryText(terms)).toBe("'walnut':*");
  });
});
