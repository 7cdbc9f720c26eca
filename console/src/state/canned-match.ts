import type { CannedReply } from './contract.ts';

/** Most canned replies the `/` menu lists at once. */
export const CANNED_MENU_MAX = 8;

/**
 * The `/shortcut` being typed at the caret: a word that starts with `/` at the start of the
 * text or after a space or line break, and what follows it so far. Null when the caret is not
 * in such a word (a URL's slashes are not: `a/b` has no space before the slash).
 * @example slashQuery('Hi /ref', 7) // { start: 3, query: 'ref' }
 */
export function slashQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|\s)\/([a-z0-9-]*)$/i.exec(before);
  if (!m) return null;
  return { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() };
}

/**
 * The replies a query finds: shortcuts that start with it first, then shortcuts and texts that
 * contain it, each group by shortcut; at most CANNED_MENU_MAX.
 */
export function matchCanned(replies: readonly CannedReply[], query: string): CannedReply[] {
  const q = query.toLowerCase();
  const starts = replies.filter((r) => r.shortcut.startsWith(q));
  const contains = replies.filter((r) => !r.shortcut.startsWith(q) && (r.shortcut.includes(q) || r.content.toLowerCase().includes(q)));
  return [...starts, ...contains].slice(0, CANNED_MENU_MAX);
}

/**
 * The text with the `/query` at `start…caret` replaced by a reply's content, and the caret
 * after it.
 * @example insertCanned('Hi /ref', 3, 7, 'Refunds take 5 days.') // { text: 'Hi Refunds take 5 days.', caret: 23 }
 */
export function insertCanned(text: string, start: number, caret: number, content: string): { text: string; caret: number } {
  return { text: text.slice(0, start) + content + text.slice(caret), caret: start + content.length };
}
