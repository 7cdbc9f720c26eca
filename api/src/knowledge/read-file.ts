import { extractPage, type PageSection } from './extract-page.ts';

/** What Heed reads an uploaded file as. */
export type KnowledgeFileType = 'markdown' | 'text' | 'html' | 'pdf';

/** A file's text as Heed keeps it: a title and its sections. */
export interface ReadFile {
  type: KnowledgeFileType;
  title: string;
  sections: PageSection[];
}

/** A file Heed cannot read, with why in the owner's words. */
export class UnreadableFile extends Error {}

/** PDF pages read from one file: a longer document is read up to here. */
export const PDF_PAGES_MAX = 500;

/**
 * Reads an uploaded file's text. The type comes from the bytes first (a PDF starts `%PDF-`;
 * anything else must be UTF-8 text without NUL bytes), the name only tells Markdown, HTML and
 * plain text apart. HTML is read like a crawled page (its main text, headings kept), Markdown
 * at its `#` headings, a PDF page by page. Nothing in the file runs.
 * @example await readKnowledgeFile('returns.md', bytes) // { type: 'markdown', title: 'Returns', sections: [...] }
 */
export async function readKnowledgeFile(name: string, bytes: Uint8Array): Promise<ReadFile> {
  const base = name.replace(/\.[^.]+$/, '').trim() || name;
  if (startsWith(bytes, '%PDF-')) return readPdf(base, bytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new UnreadableFile('not a PDF and not UTF-8 text: upload Markdown, plain text, HTML or PDF');
  }
  if (text.includes('\0')) throw new UnreadableFile('a binary file: upload Markdown, plain text, HTML or PDF');
  if (/\.html?$/i.test(name) || /^\s*<(?:!doctype html|html)\b/i.test(text)) {
    const page = extractPage(text, 'https://file.invalid/');
    return { type: 'html', title: page.title === 'https://file.invalid/' ? base : page.title, sections: page.sections };
  }
  if (/\.(?:md|markdown)$/i.test(name)) return { type: 'markdown', ...readMarkdown(base, text) };
  return { type: 'text', title: base, sections: paragraphs(base, text) };
}

/** A PDF opened by pdf.js, for reading its pages' text. */
export type OpenPdf = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

/**
 * Opens a PDF with pdf.js (through unpdf). A file pdf.js cannot open throws `UnreadableFile`, with
 * pdf.js's error as its `cause` (a `PasswordException` for one locked with a password). The caller
 * frees it with `loadingTask.destroy()` when done.
 * @example const pdf = await openPdf(bytes); try { pdf.numPages } finally { await pdf.loadingTask.destroy() }
 */
export async function openPdf(bytes: Uint8Array): Promise<OpenPdf> {
  try {
    // pdf.js is large: loaded when a PDF is first read, not with every API process
    const { getDocumentProxy } = await import('unpdf');
    // it takes the buffer over: give it a copy; its warnings about a visitor's broken file are not the server's to log
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (err) {
    throw new UnreadableFile('a PDF that could not be read (damaged or encrypted)', { cause: err });
  }
}

async function readPdf(title: string, bytes: Uint8Array): Promise<ReadFile> {
  let pages: string[];
  const pdf = await openPdf(bytes);
  try {
    if (pdf.numPages > PDF_PAGES_MAX) throw new UnreadableFile(`more than ${PDF_PAGES_MAX} pages`);
    const { extractText } = await import('unpdf');
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (err) {
    if (err instanceof UnreadableFile) throw err;
    throw new UnreadableFile('a PDF that could not be read (damaged or encrypted)');
  } finally {
    await pdf.loadingTask.destroy();
  }
  const sections = pages.flatMap((page, i) => paragraphs(pages.length > 1 ? `${title} — page ${i + 1}` : title, page));
  if (sections.length === 0) throw new UnreadableFile('a PDF without text (a scan needs text recognition first)');
  return { type: 'pdf', title, sections };
}

/** Markdown at its headings, the marks that only style text removed. */
function readMarkdown(fallbackTitle: string, text: string): { title: string; sections: PageSection[] } {
  let title = '';
  let heading = fallbackTitle;
  let lines: string[] = [];
  const sections: PageSection[] = [];
  const flush = () => {
    sections.push(...paragraphs(heading, lines.join('\n')));
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      heading = plain(h[1]!);
      title ||= heading;
    } else lines.push(plain(line).replace(/^\s*[*+]\s+/, '- '));
  }
  flush();
  return { title: title || fallbackTitle, sections };
}

/** Text under one heading, its paragraphs one per line (a paragraph's own line breaks joined). */
function paragraphs(heading: string, text: string): PageSection[] {
  // a PDF's text can hold control characters (PostgreSQL text cannot hold NUL): only line breaks and tabs stay
  const body = text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .split(/\r?\n\s*\r?\n/)
    .map((p) =>
      p
        .split(/\r?\n/)
        .map((l) => l.trim())
        .reduce((out, l) => (!out || l.startsWith('- ') ? `${out}\n${l}` : `${out} ${l}`), '')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
  return body ? [{ heading, text: body }] : [];
}

/** Markdown's inline marks removed: links keep their words, emphasis and code marks go. */
const plain = (s: string) =>
  s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2');

const startsWith = (bytes: Uint8Array, magic: string) => [...magic].every((c, i) => bytes[i] === c.charCodeAt(0));
