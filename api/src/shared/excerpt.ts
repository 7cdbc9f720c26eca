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
 * Cuts on the last word boundary that fits, adding an ellipsis. Never splits a user-visible
 * character (a flag, a family emoji), and never returns more than `max` code points, which
 * is what PostgreSQL's VarChar(n) counts.
 */
export function truncateOnWord(text: string, max: number): string {
  if (Array.from(text).length <= max) return text;
  let head = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = Array.from(segment).length;
    if (used + size > max - 1) break;
    head += segment;
    used += size;
  }
  const cut = head.lastIndexOf(' ');
  return `${(cut > head.length / 2 ? head.slice(0, cut) : head).trimEnd()}…`;
}
