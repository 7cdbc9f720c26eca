import { cutOnWord } from '../shared/excerpt.ts';
import { TITLE_MAX } from '../shared/title-limits.ts';

// Invisible characters a model (or a pasted string) can carry: zero-width spaces and joiners
// outside emoji sequences are kept by the segmenter, so only the ones that never render are dropped.
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** Opening and closing quote marks a model wraps titles in, in the languages we serve. */
const QUOTES = `"'\`“”„‟‘’‚‛«»‹›「」『』〝〞＂＇`;
const SURROUNDING_QUOTES = new RegExp(`^[${QUOTES}]+|[${QUOTES}]+$`, 'g');
/** "Title:", "**Title** -", "Titre :", "Conversation title:"… at the start, any case. */
const LABEL =
  /^(?:(?:conversation|chat|suggested|new)\s+)?(?:title|titre|título|titulo|titel|titolo|subject|topic|sujet|tema|thema)\s*[:：\-–—]\s*/iu;
const END_PUNCTUATION = /[\s.,;:!?¡¿…。、，；：！？·\-–—|]+$/u;
// A leading '.' or '/' stays: '.NET upgrade', '/etc/hosts permissions'.
const START_PUNCTUATION = /^[\s,;:!?…、，；：！？·\-–—|>•]+/u;
/** A refusal or a chatty preamble is never a title. */
const NOT_A_TITLE = /^(?:i'?m sorry|i am sorry|sorry,|i cannot|i can'?t|as an ai|here(?:'s| is) (?:a|the|your) title)\b/i;

/**
 * Turns a model's proposed title into the title we store, or `null` when it is not usable
 * (empty, emoji or punctuation only, a refusal). The one owner of "what a title looks like":
 * surrounding quotes and "Title:" labels go, Markdown markers go (links keep their text),
 * end punctuation goes, whitespace collapses, and the result is cut on a word boundary to
 * at most TITLE_MAX code points (what PostgreSQL's VarChar counts), never inside an emoji.
 * @example normalizeTitle('**Title:** "Shipping to Canada."') // 'Shipping to Canada'
 * @example normalizeTitle('🎉🎉') // null
 */
export function normalizeTitle(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const line = raw
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !/^(?:```|~~~|---+|===+)/.test(l));
  if (!line) return null;

  let title = stripMarkdown(line);
  // Labels and quotes nest in either order ('Title: "X"', '"Title: X"'), so peel until stable.
  for (let previous = ''; previous !== title; ) {
    previous = title;
    title = title
      .replace(SURROUNDING_QUOTES, '')
      .trim()
      .replace(LABEL, '')
      .replace(START_PUNCTUATION, '')
      .replace(END_PUNCTUATION, '')
      .trim();
  }
  title = title.replace(/\s+/g, ' ');
  if (!/[\p{L}\p{N}]/u.test(title) || NOT_A_TITLE.test(title)) return null;
  return cutOnWord(title, TITLE_MAX).replace(END_PUNCTUATION, '');
}

function stripMarkdown(line: string): string {
  return line
    .replace(/^#{1,6}\s*/, '')
    .replace(/^>\s*/, '')
    .replace(/^(?:[-*+•]|\d{1,2}[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|~~|`+/g, '')
    .replace(/(^|[^\p{L}\p{N}])[*_]+|[*_]+(?=$|[^\p{L}\p{N}])/gu, '$1');
}
