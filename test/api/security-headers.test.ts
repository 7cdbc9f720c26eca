import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

/** Headers every API response carries, and HSTS only where the request came over https. */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => heed?.stop());

test('every response says nosniff and a strict referrer policy; HSTS only behind a trusted proxy that saw https', async () => {
  const plain = await fetch(`${heed.url}/healthz`);
  expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
  expect(plain.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(plain.headers.get('strict-transport-security')).toBeNull();

  const viaHttps = await fetch(`${heed.url}/trpc/conversation.list`, { headers: { 'x-forwarded-proto': 'https' } });
  expect(viaHttps.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
});
