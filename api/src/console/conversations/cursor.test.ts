import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.ts';

describe('list cursor', () => {
  it('names the same row it was made from', () => {
    const at = { updatedAt: new Date('2026-12-01T10:00:00.123Z'), id: '0b5e2f8e-8f2b-4f3c-9a57-1c7b2d0e4f11' };
    expect(decodeCursor(encodeCursor(at))).toEqual(at);
  });

  it('refuses anything this server did not make', () => {
    for (const bad of [
      '',
      'not-a-cursor',
      Buffer.from('["yesterday","x"]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
    ]) {
      expect(decodeCursor(bad)).toBeNull();
    }
  });
});
