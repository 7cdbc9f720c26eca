import { PREFIX_MIN } from '../../chat/context/recall-query.ts';

/** Most words an operator's search carries; more narrow nothing in practice. */
export const SEARCH_TERMS_MAX = 8;

/**
 * An operator's search as a `to_tsquery('simple', …)` text over `Message.search`: every word
 * must match (AND, unlike recall's OR: an operator narrows down), the last one also as a
 * prefix so a word being typed already finds, and longer ones as prefixes like recall does
 * (`walnut` finds `walnuts`). Words are lowercased runs of letters and digits, as the `simple`
 * configuration indexes them, so no tsquery operator or quote from the input reaches
 * PostgreSQL. Null when the input has no word at all.
 * @example searchQueryText('Walnut shelf') // "'walnut':* & 'shelf':*"
 * @example searchQueryText('order 12') // "'order':* & '12':*"
 */
export function searchQueryText(input: string): string | null {
  const words = [
    ...new Set(
      input
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w !== ''),
    ),
  ].slice(0, SEARCH_TERMS_MAX);
  if (words.length === 0) return null;
  return words.map((w, i) => `'${w}'${i === words.length - 1 || Array.from(w).length >= PREFIX_MIN ? ':*' : ''}`).join(' & ');
}
