/**
 * A strict RFC 4180 reader for the export tests: a spreadsheet's view of the file, so the
 * tests assert what an operator would see in each cell.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else if (ch === '"' || ch === '\n' || ch === '\r') throw new Error(`unquoted ${JSON.stringify(ch)} at ${i}`);
    else cell += ch;
  }
  if (quoted) throw new Error('unterminated quote');
  if (cell !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}

/** Rows as objects keyed by the header row. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('no header row');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`a row of ${row.length} cells under a header of ${header.length}`);
    return Object.fromEntries(header.map((name, i) => [name, row[i]!]));
  });
}

/**
 * A file of several tables, one under the other, each under its own header row and parted by
 * one empty record (the overview's download): each table's rows as objects keyed by its header.
 */
export function csvTables(text: string): Record<string, string>[][] {
  const tables: string[][][] = [[]];
  for (const row of parseCsv(text)) {
    if (row.length === 1 && row[0] === '') tables.push([]);
    else tables.at(-1)!.push(row);
  }
  return tables.map(([header, ...rows]) => {
    if (!header) throw new Error('a table without a header row');
    return rows.map((row) => {
      if (row.length !== header.length) throw new Error(`a row of ${row.length} cells under a header of ${header.length}`);
      return Object.fromEntries(header.map((name, i) => [name, row[i]!]));
    });
  });
}

/** The header row of each table of such a file. */
export function csvHeaders(text: string): string[][] {
  const rows = parseCsv(text);
  const isBreak = (row: string[] | undefined) => row?.length === 1 && row[0] === '';
  return rows.filter((_, i) => i === 0 || isBreak(rows[i - 1]));
}

/** The team's figures, per bucket and over the range, in the overview's download. */
export const PEOPLE_HEADER = [
  'first_responses',
  'first_response_p50_s',
  'first_response_p90_s',
  'resolutions',
  'resolution_p50_s',
  'resolution_p90_s',
  'ratings_helpful',
  'ratings_not_helpful',
];
