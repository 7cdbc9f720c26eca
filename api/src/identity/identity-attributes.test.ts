import { describe, expect, test } from 'vitest';
import { readAttributes } from './identity-attributes.ts';

describe('readAttributes', () => {
  test('keeps strings, finite numbers and booleans; drops the rest one by one', () => {
    expect(readAttributes({ plan: 'pro', seats: 3, trial: true, nested: {}, list: [], none: null, inf: Number.POSITIVE_INFINITY })).toEqual(
      {
        plan: 'pro',
        seats: 3,
        trial: true,
      },
    );
  });

  test('a `__proto__` name is an ordinary attribute, never the prototype', () => {
    const read = readAttributes(JSON.parse('{"__proto__": "x", "plan": "pro"}'))!;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.keys(read)).toEqual(['__proto__', 'plan']);
  });

  test('no claim, or one that is not an object, is null: the stored attributes stay', () => {
    for (const claim of [undefined, null, 'plan=pro', 42, ['plan']]) expect(readAttributes(claim)).toBeNull();
    expect(readAttributes({})).toEqual({});
  });
});
