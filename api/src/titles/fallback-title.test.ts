import { describe, expect, test } from 'vitest';
import { TITLE_MAX } from '../shared/title-limits.ts';
import { fallbackTitle } from './fallback-title.ts';

const codePoints = (s: string) => Array.from(s).length;
/** User-perceived characters, as a reader counts them. */
const graphemes = (s: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('fallbackTitle', () => {
  test('line breaks, tabs and runs of spaces collapse to single spaces, ends trimmed', () => {
    expect(fallbackTitle('  How do I\nreset   my\tpassword?  ')).toBe('How do I reset my password?');
  });

  test('a first message of at most 64 characters is the title as is', () => {
    const exact = 'x'.repeat(TITLE_MAX);
    expect(TITLE_MAX).toBe(64);
    expect(fallbackTitle(exact)).toBe(exact);
    expect(fallbackTitle('Where is my order #4512?')).toBe('Where is my order #4512?');
  });

  test('a longer first message is cut on a word boundary to at most 64 characters, with an ellipsis', () => {
    const message = 'I ordered a blue jacket last Tuesday and it still has not arrived, can you check the status please?';
    const title = fallbackTitle(message);
    expect(codePoints(title)).toBeLessThanOrEqual(TITLE_MAX);
    expect(title).toBe('I ordered a blue jacket last Tuesday and it still has not…');
    // the cut never leaves half a word: the original continues with a space after the kept text
    const kept = title.slice(0, -1);
    expect(message.startsWith(kept)).toBe(true);
    expect(message[kept.length]).toBe(' ');
  });

  test('the length counts what was typed after whitespace collapse, not the raw input', () => {
    const spaced = `Hello${' '.repeat(100)}world`;
    expect(fallbackTitle(spaced)).toBe('Hello world');
  });

  test('emoji made of surrogate pairs are never split at the cut', () => {
    const title = fallbackTitle('😀'.repeat(100));
    expect(title).toBe(`${'😀'.repeat(TITLE_MAX - 1)}…`);
    expect(title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  test('a flag emoji (two code points) is never cut in half, which would show a stray letter symbol', () => {
    const title = fallbackTitle(`Bonjour ${'🇫🇷'.repeat(40)}`);
    expect(title.endsWith('…')).toBe(true);
    expect(codePoints(title)).toBeLessThanOrEqual(TITLE_MAX);
    expect(graphemes(title.slice('Bonjour '.length, -1)).filter((g) => g !== '🇫🇷')).toEqual([]);
  });

  test('a family emoji (joined by zero-width joiners) is never cut into separate people', () => {
    const family = '👩‍👩‍👧';
    const title = fallbackTitle(family.repeat(20));
    expect(title.endsWith('…')).toBe(true);
    expect(codePoints(title)).toBeLessThanOrEqual(TITLE_MAX);
    expect(graphemes(title.slice(0, -1)).filter((g) => g !== family)).toEqual([]);
  });
});
