import { type OpenPdf, openPdf, PDF_PAGES_MAX, UnreadableFile } from '../../knowledge/read-file.ts';

/** The words kept from one attached PDF or text file, the cut marker included. */
export const ATTACHMENT_TEXT_MAX_CHARS = 20_000;

/** What ends a text that was cut. */
export const TEXT_CUT_MARKER = '\n[… the rest of this file was cut]';

export type ExtractedText = { ok: true; text: string } | { ok: false; code: 'file_damaged'; message: string };

/**
 * The words of an attached PDF or text file, at most 20,000 characters (cut at a word, marked).
 * A PDF is read page by page with pdf.js until there is enough; one pdf.js cannot parse is
 * `file_damaged`, while one without a text layer (a scan) or locked with a password gives `''`:
 * it is still a file the operator can open. Text is the file decoded as UTF-8.
 * @example await extractText(textPdf([['Order 1042 arrived broken.']]), 'pdf') // { ok: true, text: 'Order 1042 arrived broken.' }
 */
export async function extractText(bytes: Uint8Array, kind: 'pdf' | 'text'): Promise<ExtractedText> {
  if (kind === 'text') return { ok: true, text: bounded(tidy(new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes))) };
  let pdf: OpenPdf;
  try {
    pdf = await openPdf(bytes);
  } catch (err) {
    if (err instanceof UnreadableFile && (err.cause as Error | undefined)?.name === 'PasswordException') return { ok: true, text: '' };
    return damaged();
  }
  try {
    const pages: string[] = [];
    let length = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, PDF_PAGES_MAX) && length <= ATTACHMENT_TEXT_MAX_CHARS; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      const page = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      pages.push(page);
      length += page.length;
    }
    return { ok: true, text: bounded(tidy(pages.join('\n\n'))) };
  } catch {
    return damaged();
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** Control characters gone (PostgreSQL text holds no NUL; a PDF's text can carry them), line ends made `\n`, runs of blank lines and spaces shortened. */
function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '')
    .replace(/[^\S\n]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** At most the limit with its marker, cut after the last whole word (or mid-word when one word fills it all). */
function bounded(text: string): string {
  if (text.length <= ATTACHMENT_TEXT_MAX_CHARS) return text;
  const room = ATTACHMENT_TEXT_MAX_CHARS - TEXT_CUT_MARKER.length;
  const head = text.slice(0, room + 1);
  const space = head.search(/\s\S*$/);
  let end = space > room * 0.8 ? space : room;
  // never half of a surrogate pair
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return text.slice(0, end).trimEnd() + TEXT_CUT_MARKER;
}

function damaged(): ExtractedText {
  return {
    ok: false,
    code: 'file_damaged',
    message: 'This file starts like a PDF but could not be read as one; it may be damaged or incomplete.',
  };
}
