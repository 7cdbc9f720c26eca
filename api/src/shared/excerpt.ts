/** Longest excerpt stored on a conversation (matches the column's VarChar(200)). */
export const EXCERPT_MAX = 160;

/**
 * First non-empty line of a reply, whitespace collapsed, Markdown emphasis markers dropped,
 * cut on a word boundary with an ellipsis when longer than `max`.
 * @example excerptOf('**Sure.** Here is how\n- step') // 'Sure. Here is how'
 */
export function excerptOf(text: string, max = EXCERPT_MAX): string {
  const line = text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|>\s*)/, '').replace(/[*_`]+/g, '').replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0) ?? '';
  return truncateOnWord(line, max);
}

/** Cuts on the last word boundary that fits, adding an ellipsis; never returns more than `max` characters. */
export function truncateOnWord(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const cut = head.lastIndexOf(' ');
  return `${(cut > max / 2 ? head.slice(0, cut) : head).trimEnd()}…`;
}
