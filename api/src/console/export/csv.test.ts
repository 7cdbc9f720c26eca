import { expect, test } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

test('cells with a delimiter, a quote or a line break are quoted and quotes doubled (RFC 4180)', () => {
  expect(csvCell('plain')).toBe('plain');
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
  expect(csvCell('carriage\r\nreturn')).toBe('"carriage\r\nreturn"');
  expect(csvRow(['a', 'b,c', null, 3])).toBe('a,"b,c",,3\r\n');
});

test('text that a spreadsheet would run as a formula is prefixed with a quote', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}SUM(A1:A9)`).replace(/^"/, '')).toMatch(/^'/);
  expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe('"\'=HYPERLINK(""http://evil.example"",""click"")"');
  expect(csvCell('@cmd')).toBe("'@cmd");
  // only the first character matters: a formula sign inside text is just text
  expect(csvCell('1+1=2')).toBe('1+1=2');
});

test('numbers, flags, times and missing values keep their meaning', () => {
  expect(csvCell(-3)).toBe('-3');
  expect(csvCell(0.00012)).toBe('0.00012');
  expect(csvCell(Number.NaN)).toBe('');
  expect(csvCell(true)).toBe('true');
  expect(csvCell(new Date('2026-12-01T10:00:00Z'))).toBe('2026-12-01T10:00:00.000Z');
  expect(csvCell(undefined)).toBe('');
});
