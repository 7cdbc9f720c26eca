import { describe, expect, test } from 'vitest';
import { pickCoding } from './accept-encoding.ts';

const both = ['br', 'gzip'] as const;

describe('pickCoding', () => {
  test('a browser that accepts everything gets brotli, the smallest', () => {
    expect(pickCoding('gzip, deflate, br, zstd', both)).toBe('br');
  });

  test('q=0 refuses a coding, in any case and spacing', () => {
    expect(pickCoding('br;q=0, gzip', both)).toBe('gzip');
    expect(pickCoding('BR ; Q=0 , GZIP', both)).toBe('gzip');
  });

  test('the highest q wins over the server’s preference', () => {
    expect(pickCoding('br;q=0.5, gzip', both)).toBe('gzip');
    expect(pickCoding('br;q=0.5, identity', both)).toBeNull();
  });

  test('no header, an empty one, or only codings without a copy mean the file as it is', () => {
    expect(pickCoding(undefined, both)).toBeNull();
    expect(pickCoding('', both)).toBeNull();
    expect(pickCoding('deflate, zstd', both)).toBeNull();
    expect(pickCoding('gzip, br', [])).toBeNull();
  });

  test('* stands for every coding not named', () => {
    expect(pickCoding('*', both)).toBe('br');
    expect(pickCoding('br;q=0, *', both)).toBe('gzip');
    expect(pickCoding('*;q=0, identity', both)).toBeNull();
  });

  test('only the copies that exist are chosen', () => {
    expect(pickCoding('br, gzip', ['gzip'])).toBe('gzip');
  });

  test('an unreadable q refuses the coding rather than guessing', () => {
    expect(pickCoding('br;q=high, gzip', both)).toBe('gzip');
    expect(pickCoding('br;q=2, gzip', both)).toBe('gzip');
  });
});
