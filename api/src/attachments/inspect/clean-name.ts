import { supportedExtensions } from 'file-type';
import type { AttachmentKind } from '../../shared/attachment-kinds.ts';

/** A cleaned name is at most this long (the column's limit), its extension kept. */
export const FILE_NAME_MAX = 200;

/** The extensions each kind may keep, its own first (the one a name without one gets). */
const EXTENSIONS: Record<AttachmentKind, readonly string[]> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  webp: ['webp'],
  gif: ['gif'],
  pdf: ['pdf'],
  // text kept under the names of text formats that open as text; `.html`, `.svg` or `.js` would open as something that runs
  text: ['txt', 'text', 'md', 'markdown', 'csv', 'tsv', 'log', 'json', 'yaml', 'yml'],
};

/** What a name with nothing left is called. */
const DEFAULT_BASE: Record<AttachmentKind, string> = {
  png: 'image',
  jpeg: 'image',
  webp: 'image',
  gif: 'image',
  pdf: 'document',
  text: 'file',
};

/** Extensions that name a type of their own: replaced, not kept before ours (`x.jpg` → `x.png`, but `v1.final` → `v1.final.pdf`). */
const OTHER_TYPES = new Set([
  ...supportedExtensions,
  ...Object.values(EXTENSIONS).flat(),
  // and what file-type does not detect but a desktop opens as its own (markup, scripts, older formats)
  ...['htm', 'html', 'xhtml', 'svg', 'svgz', 'js', 'mjs', 'css', 'php', 'bat', 'cmd', 'com', 'ps1', 'vbs', 'hta', 'sh'],
  ...['jpe', 'jfif', 'doc', 'xls', 'ppt', 'tiff', 'heif'],
]);

/** Characters that change how the rest of a name shows or hide themselves: bidi embeddings, overrides, isolates and marks, zero-width ones. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u061C\uFEFF]/g;
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/**
 * The name a file is shown and downloaded as: the last segment of whatever path the browser sent,
 * without control or invisible characters (a right-to-left override makes `exe.png` look like
 * `gnp.exe`), in NFC, white space collapsed, at most 200 characters with the extension kept, and
 * an extension that matches what the bytes are.
 * @example cleanFileName('C:\\Users\\ann\\Desktop\\shot.jpg', 'png') // 'shot.png'
 * @example cleanFileName('', 'pdf') // 'document.pdf'
 */
export function cleanFileName(raw: string, kind: AttachmentKind): string {
  // a line break or tab is a space between words; other control characters are nothing
  const last =
    raw
      .replace(/[\t\n\v\f\r]/g, ' ')
      .replace(CONTROL, '')
      .split(/[/\\]/)
      .pop() ?? '';
  const name = last.replace(INVISIBLE, '').normalize('NFC').replace(/\s+/g, ' ').trim();
  const dot = /^(.*)\.([^.\s]{1,10})$/.exec(name);
  const own = EXTENSIONS[kind];
  let base = name;
  let ext = own[0]!;
  if (dot) {
    const given = dot[2]!.toLowerCase();
    if (own.includes(given)) [base, ext] = [dot[1]!, dot[2]!];
    else if (OTHER_TYPES.has(given)) base = dot[1]!;
  }
  // leading dots hide a file; trailing dots and spaces are dropped by Windows
  base = cut(base.replace(/^[\s.]+|[\s.]+$/g, ''), FILE_NAME_MAX - ext.length - 1).replace(/[\s.]+$/, '');
  return `${base || DEFAULT_BASE[kind]}.${ext}`;
}

/** At most `max` UTF-16 units, cut between graphemes (never half an emoji or a letter without its accent). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)) {
    if (out.length + segment.length > max) break;
    out += segment;
  }
  return out;
}
