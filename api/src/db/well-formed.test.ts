import { describe, expect, test } from 'vitest';
import { wellFormed, wellFormedText } from './well-formed.ts';

describe('wellFormed', () => {
  test('a lone high or low surrogate becomes U+FFFD; a pair (an emoji) is kept', () => {
    expect(wellFormedText('Hel\ud800lo')).toBe('Hel\uFFFDlo');
    expect(wellFormedText('\udc00start and end\ud83d')).toBe('\uFFFDstart and end\uFFFD');
    expect(wellFormedText('low before high \ude00\ud83d')).toBe('low before high \uFFFD\uFFFD');
    expect(wellFormedText('a smile 😀 stays')).toBe('a smile 😀 stays');
    // what stored text and JSON payloads then agree on: the UTF-8 the database gets
    expect(Buffer.from(wellFormedText('x\ud800y')).toString()).toBe(Buffer.from('x\ud800y').toString());
  });

  test('strings and keys at any depth of parsed JSON are repaired, in place', () => {
    const input = JSON.parse('{"content":"a\\ud800","list":["\\udfff",1,{"k\\ud801":"v"}],"ok":"😀"}');
    const out = wellFormed(input);
    expect(out).toBe(input);
    expect(out).toEqual({ content: 'a\uFFFD', list: ['\uFFFD', 1, { 'k\uFFFD': 'v' }], ok: '😀' });
    expect(JSON.stringify(out)).not.toMatch(/\\ud[89a-f]/i);
  });

  test('an own __proto__ key stays a plain key and the prototype is untouched', () => {
    const input = JSON.parse('{"__proto__":"\\ud800","x":1}') as Record<string, unknown>;
    wellFormed(input);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(input, '__proto__')?.value).toBe('\uFFFD');
  });

  test('input nested 100,000 deep is walked without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}`) as unknown;
    expect(() => wellFormed(deep)).not.toThrow();
    let inner: unknown = deep;
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe('\uFFFD');
  });

  test('a top-level string, numbers, null and cycles are handled', () => {
    expect(wellFormed('\ud800')).toBe('\uFFFD');
    expect(wellFormed(7)).toBe(7);
    expect(wellFormed(null)).toBe(null);
    const cyclic: Record<string, unknown> = { text: '\ud800' };
    cyclic.self = cyclic;
    expect(wellFormed(cyclic).text).toBe('\uFFFD');
  });
});
