/**
 * A cell of a printed table: numbers print with the table's fixed decimals (pass counts as strings),
 * NaN and null as "–".
 */
export type Cell = string | number | null;

/**
 * Renders rows as an aligned, two-space-indented text table: the first column left-aligned,
 * every other column right-aligned, numbers with `digits` decimals.
 * @example formatTable(['metric', 'p50'], [['overhead', 12.34]], 1) // '  metric    p50\n  overhead  12.3'
 */
export function formatTable(header: string[], rows: Cell[][], digits = 1): string {
  const text = [header, ...rows.map((row) => row.map((cell) => formatCell(cell, digits)))];
  const widths = header.map((_, col) => Math.max(...text.map((row) => (row[col] ?? '').length)));
  return text
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `  ${line}`)
    .join('\n');
}

/** A titled block: `== title`, notes as `  · note` lines, then the body. */
export function formatSection(title: string, notes: string[], body: string): string {
  return [`== ${title}`, ...notes.map((note) => `  · ${note}`), body].join('\n');
}

function formatCell(cell: Cell, digits: number): string {
  if (cell === null) return '–';
  if (typeof cell === 'string') return cell;
  if (!Number.isFinite(cell)) return '–';
  return cell.toFixed(digits);
}
