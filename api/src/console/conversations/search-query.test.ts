import { describe, expect, it } from 'vitest';
import { searchQueryText, SEARCH_TERMS_MAX } from './search-query.ts';

describe('searchQueryText', () => {
  it('asks for every word, lowercased, the last and the long ones as prefixes', () => {
    expect(searchQueryText('Walnut shelf')).toBe("'walnut':* & 'shelf':*");
    expect(searchQueryText('my big walnut')).toBe("'my' & 'big' & 'walnut':*");
  });

  it('keeps only letters and digits, so no tsquery syntax or quote from the input reaches PostgreSQL', () => {
    expect(searchQueryText("o'brien & (x | !y) <-> z:*")).toBe("'o' & 'brien':* & 'x' & 'y' & 'z':*");
    expect(searchQueryText('Größe 42, Ünïcödé')).toBe("'größe':* & '42' & 'ünïcödé':*");
  });

  it('is null without any word, and bounded in words', () => {
    expect(searchQueryText("  ' & | ! ")).toBeNull();
    const many = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(searchQueryText(many)!.split(' & ')).toHaveLength(SEARCH_TERMS_MAX);
  });
});
