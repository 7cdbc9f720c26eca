import { describe, expect, test } from 'vitest';
import { EXCERPT_MAX, excerptOf, truncateOnWord } from './excerpt.ts';

const codePoints = (s: string) => Array.from(s).length;

describe('excerptOf', () => {
  test('the excerpt is the first non-empty line of the reply', () => {
    expect(excerptOf('\n\n  Sure, here is how.\nStep one: open settings.')).toBe('Sure, here is how.');
  });

  test('Markdown emphasis, headings, bullets and quotes do not show as symbols', () => {
    expect(excerptOf('**Sure.** Here is how\n- step')).toBe('Sure. Here is how');
    expect(excerptOf('## Shipping _options_')).toBe('Shipping options');
    expect(excerptOf('- `npm install` first')).toBe('npm install first');
    expect(excerptOf('> Quoted answer')).toBe('Quoted answer');
  });

  test('runs of spaces and tabs collapse to one space', () => {
    expect(excerptOf('Hello \t   there   friend  ')).toBe('Hello there friend');
  });

  test('an empty or markup-only reply gives an empty excerpt', () => {
    expect(excerptOf('')).toBe('');
    expect(excerptOf('  \n **  ** \n')).toBe('');
  });

  test('a long first line is cut on a word boundary with an ellipsis, within the limit', () => {
    const line = 'word '.repeat(60).trim(); // 299 characters
    const excerpt = excerptOf(line);
    expect(codePoints(excerpt)).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(excerpt.endsWith(' word…')).toBe(true);
    expect(line.startsWith(excerpt.slice(0, -1))).toBe(true);
  });

  test('fits the conversation excerpt column (VarChar(200)) with room to spare', () => {
    expect(EXCERPT_MAX).toBeLessThanOrEqual(200);
    expect(codePoints(excerptOf('x'.repeat(1000)))).toBeLessThanOrEqual(EXCERPT_MAX);
  });

  test('underscores inside words are kept, since Markdown does not read them as emphasis', () => {
    expect(excerptOf('Set max_tokens in your config_file.')).toBe('Set max_tokens in your config_file.');
    expect(excerptOf('See https://example.com/help/reset_password')).toBe('See https://example.com/help/reset_password');
  });
});

describe('truncateOnWord', () => {
  test('text within the limit comes back unchanged', () => {
    expect(truncateOnWord('short text', 10)).toBe('short text');
  });

  test('a long word with no space to cut at is cut hard, still within the limit', () => {
    const cut = truncateOnWord('a'.repeat(50), 20);
    expect(cut).toBe(`${'a'.repeat(19)}…`);
  });

  test('an emoji at the cut is kept whole or dropped, never halved', () => {
    const cut = truncateOnWord('😀'.repeat(30), 10);
    expect(cut).toBe(`${'😀'.repeat(9)}…`);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no lone high surrogate
  });
});
