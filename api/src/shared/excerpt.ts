/** Longest excerpt stored on a conversation (matches the column's VarChar(200)). */
export const EXCERPT_MAX = 160;

/**
 * First line of prose in a reply, whitespace collapsed, Markdown markers dropped (code
 * fences skipped; underscores inside words kept), cut on a word boundary with an ellipsis
 * when longer than `max`.
 * @example excerptOf('**Sure.** Here is how\n- step') // 'Sure. Here is how'
 */
export function excerptOf(text: string, max = EXCERPT_MAX): string {
  const line =
    text
      .split('\n')
      .filter((l) => !/^\s*(```|~~~)/.test(l))
      .map((l) =>
        l
          .replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)/, '')
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/[*`]+/g, '')
          .replace(/(^|[^\p{L}\p{N}])_+|_+(?=$|[^\p{L}\p{N}])/gu, '$1')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .find((l) => l.length > 0) ?? '';
  return truncateOnWord(line, max);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * At most `max` code points (what PostgreSQL's VarChar(n) counts), cut after the last whole
 * word that fits, never inside a user-visible character (a flag, a family emoji).
 * @example cutOnWord('Shipping to Norway', 12) // 'Shipping to'
 */
export function cutOnWord(text: string, max: number): string {
  if (Array.from(text).length <= max) return text;
  let head = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = Array.from(segment).length;
    if (used + size > max) break;
    head += segment;
    used += size;
  }
  const cut = head.lastIndexOf(' ');
  return cut > head.length / 2 ? head.slice(0, cut) : head;
}

/** {@link cutOnWord} with an ellipsis when anything was cut; never more than `max` code points. */
export function truncateOnWord(text: string, max: number): string {
  if (Array.from(text).length <= max) return text;
  return `${cutOnWord(text, max - 1).trimEnd()}…`;
}
