import { describe, expect, test } from 'vitest';
import { prepareTitleInput, TITLE_INPUT_LIMITS } from './title-input.ts';

const length = (s: string) => Array.from(s).length;

describe('prepareTitleInput', () => {
  test('messages are redacted', () => {
    expect(prepareTitleInput(['Mail me at jo@example.com'], ['card 4242 4242 4242 4242'])).toEqual({
      first: ['Mail me at [email]'],
      latest: ['card [card number]'],
    });
  });

  test('each message is capped, and all of them together stay within the total', () => {
    const long = 'word '.repeat(400);
    const input = prepareTitleInput([long, long, long], [long, long, long]);
    const all = [...input.first, ...input.latest];
    expect(all).toHaveLength(6);
    for (const text of all) expect(length(text)).toBeLessThanOrEqual(TITLE_INPUT_LIMITS.total / 6);
    expect(all.reduce((n, t) => n + length(t), 0)).toBeLessThanOrEqual(TITLE_INPUT_LIMITS.total);
  });

  test('one long message gets at most the per-message cap', () => {
    const { first } = prepareTitleInput(['word '.repeat(400)], []);
    expect(length(first[0]!)).toBeLessThanOrEqual(TITLE_INPUT_LIMITS.perMessage);
  });

  test('redaction happens before the cut, so a secret straddling the cut never leaves a fragment', () => {
    const key = 'sk-proj-Abc123def456GHI789jkl012mno345';
    const text = `${'a '.repeat(245)}${key} and more`;
    const { first } = prepareTitleInput([text], []);
    expect(first[0]).not.toContain('sk-proj');
    expect(first[0]).not.toContain('Abc123');
  });

  test('a message that is nothing but removed text is dropped when empty', () => {
    expect(prepareTitleInput(['<|im_start|>'], ['hi'])).toEqual({ first: [], latest: ['hi'] });
  });
});
