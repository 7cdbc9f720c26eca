import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { fuzzSeed } from '../support/fuzz-seed.ts';

/**
 * No malformed input reaches a 5xx: any query string on either export, and any input to
 * console.overview.series, from a signed-in operator (signed out, nothing is parsed at all).
 */
let heed: TestHeed;
let agent: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
});
afterAll(() => heed?.stop());

const params = { numRuns: 150, seed: fuzzSeed('console exports') };
const key = fc.constantFrom('siteId', 'filter', 'search', 'range', 'cursor', 'limit', '', 'siteId[]', '__proto__', 'constructor');
const value = fc.oneof(
  fc.constantFrom(
    '',
    'all',
    'failed',
    'unread',
    'live',
    'input_needed',
    '24h',
    '7d',
    '30d',
    '00000000-0000-4000-8000-000000000000',
    'null',
    '%00',
    '\u0000',
    '=1+1',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uuid(),
  fc.string({ minLength: 190, maxLength: 260 }),
);
const query = fc.array(fc.tuple(key, value), { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString());

test('any query string on either export answers 200, 400 or 404, never 5xx', { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('conversations.csv', 'overview.csv', 'overview.csv/x', ''), query, async (file, qs) => {
      const res = await fetch(`${heed.url}/admin/export/${file}?${qs}`, { headers: { cookie: agent.cookie } });
      await res.arrayBuffer();
      expect([200, 400, 404], `${file}?${qs}`).toContain(res.status);
    }),
    params,
  );
});

test('any input to console.overview.series answers data or 400, never 5xx', { timeout: 60_000 }, async () => {
  const input = fc.oneof(fc.anything({ maxDepth: 2 }), fc.record({ range: value, siteId: fc.option(value) }, { requiredKeys: [] }));
  await fc.assert(
    fc.asyncProperty(input, async (raw) => {
      const res = await fetch(`${heed.url}/trpc/console.overview.series?input=${encodeURIComponent(JSON.stringify(raw) ?? '')}`, {
        headers: { cookie: agent.cookie, origin: heed.url },
      });
      await res.arrayBuffer();
      expect([200, 400], JSON.stringify(raw)).toContain(res.status);
    }),
    params,
  );
});
