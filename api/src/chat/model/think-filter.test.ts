import { describe, expect, test } from 'vitest';
import { ThinkFilter } from './think-filter.ts';

/** What the visitor would read when `fragments` stream in. */
const visible = (fragments: string[]) => {
  const f = new ThinkFilter();
  return fragments.map((x) => f.push(x)).join('') + f.end();
};

describe('ThinkFilter', () => {
  test('a reasoning block is removed, with the blank lines after it', () => {
    expect(visible(['<think>plan</think>\n\nHello.'])).toBe('Hello.');
  });

  test('tags split at every position are still recognised', () => {
    const text = '<think>secret</think>Answer <b>bold</b>.';
    for (let i = 1; i < text.length; i++) expect(visible([text.slice(0, i), text.slice(i)])).toBe('Answer <b>bold</b>.');
  });

  test('one character at a time', () => {
    expect(visible([...'<think>a < b</think> ok'])).toBe('ok');
  });

  test('text that only starts like a tag is shown once the stream ends', () => {
    expect(visible(['Use <th', 'ead> and <thi'])).toBe('Use <thead> and <thi');
  });

  test('an unclosed reasoning block shows nothing', () => {
    expect(visible(['<think>still thinking'])).toBe('');
  });

  test('text before the block stays', () => {
    expect(visible(['Sure. <think>x</think>Done.'])).toBe('Sure. Done.');
  });
});
