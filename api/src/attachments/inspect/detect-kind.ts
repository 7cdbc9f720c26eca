import { fileTypeFromBuffer } from 'file-type';
import { type AttachmentKind, kindOfMime } from '../../shared/attachment-kinds.ts';

/** What a file's bytes are: one of our kinds, or what it is instead ("SVG", "ZIP", "unknown"). */
export type DetectedKind = { ok: true; kind: AttachmentKind } | { ok: false; detected: string };

/**
 * Decides a file's kind from its bytes alone, never its name or the browser's claim. A binary
 * type file-type recognises (PNG, JPEG, WebP, GIF, PDF) is that kind; anything else is plain
 * text only when it is valid UTF-8 with no NUL and few control characters, and not SVG or HTML
 * (both run script when opened from the API's origin).
 * @example await detectKind(pngBytes) // { ok: true, kind: 'png' }
 * @example await detectKind(Buffer.from('<svg onload="alert(1)"/>')) // { ok: false, detected: 'SVG' }
 */
export async function detectKind(bytes: Uint8Array): Promise<DetectedKind> {
  const found = await fileTypeFromBuffer(bytes);
  // an animated PNG is a PNG to every decoder that does not know APNG: it is cleaned to its first frame
  const kind = found && kindOfMime(found.mime === 'image/apng' ? 'image/png' : found.mime);
  if (kind) return { ok: true, kind };
  // text formats file-type names (XML, RTF, iCalendar…) are read as text: served as text/plain, none runs
  const text = asText(bytes);
  if (text === null) return { ok: false, detected: found ? found.ext.toUpperCase() : 'unknown' };
  const markup = markupOf(text);
  return markup ? { ok: false, detected: markup } : { ok: true, kind: 'text' };
}

/** At most one character in this many may be a control character other than tab, line breaks and form feed. */
const CONTROL_RATIO = 100;

/** The bytes as text when they are valid UTF-8 without NUL and with few control characters, else null. */
function asText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return null;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) controls++;
  }
  return controls * CONTROL_RATIO <= text.length ? text : null;
}

/** What may stand before a document's first element: white space, processing instructions (the XML declaration), comments, a doctype. */
const PROLOG = /\s*(?:<\?[\s\S]*?(?:\?>|$)|<!--[\s\S]*?(?:-->|$)|<!doctype\b[^>[]*(?:\[[\s\S]*?\])?[^>]*(?:>|$))/iy;

/**
 * "SVG" or "HTML" when the text opens as one, after a byte-order mark and what may come first in
 * either (white space, the XML declaration, comments, a doctype, whose name also tells).
 * @example markupOf('\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg"/>') // 'SVG'
 */
export function markupOf(text: string): 'SVG' | 'HTML' | null {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    PROLOG.lastIndex = at;
    const prolog = PROLOG.exec(text);
    if (!prolog || prolog[0].length === 0) break;
    if (/^\s*<!doctype\s+html\b/i.test(prolog[0])) return 'HTML';
    if (/^\s*<!doctype\s+svg\b/i.test(prolog[0])) return 'SVG';
    at += prolog[0].length;
  }
  // the first element, an XML namespace prefix allowed (`<svg:svg>`)
  const first = /\s*<(?:[\w.-]+:)?([\w-]+)/y;
  first.lastIndex = at;
  const name = first.exec(text)?.[1]?.toLowerCase();
  if (name === 'svg') return 'SVG';
  if (name && HTML_FIRST.has(name)) return 'HTML';
  return null;
}

/** The elements that make a browser sniff a page as HTML (the WHATWG MIME Sniffing Standard's list), and a few that run or load things. */
const HTML_FIRST = new Set([
  ...['html', 'head', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'body', 'br', 'p'],
  ...['object', 'embed', 'meta', 'img', 'link', 'form', 'base'],
]);
