/**
 * RFC 4180 CSV, safe to open in a spreadsheet. Conversation titles, excerpts and visitor names
 * are written by visitors and models: a cell such as `=HYPERLINK("http://evil","click")` must
 * reach the operator's spreadsheet as text, never as a formula.
 */

/** What a cell may hold: text, a number, a moment, a flag, or nothing (an empty cell). */
export type CsvValue = string | number | boolean | Date | null | undefined;

/** First characters a spreadsheet reads as the start of a formula (OWASP's list: = + - @ tab CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that force quoting (RFC 4180 §2.6): the delimiter, the quote, line breaks. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell. Text that would start a formula gets a leading `'` (spreadsheets show it as text
 * and hide the quote); numbers, flags and ISO times are written as they are, so a negative
 * number stays a number. Cells with `,` `"` or line breaks are quoted, `"` doubled.
 * @example csvCell('=1+1') // "'=1+1"
 * @example csvCell('say "hi", then') // '"say ""hi"", then"'
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One record, CRLF-terminated as RFC 4180 has it.
 * @example csvRow(['id', 'title']) // 'id,title\r\n'
 */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
