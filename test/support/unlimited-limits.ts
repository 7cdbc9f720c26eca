import { DEFAULT_LIMITS } from '../../api/src/limits/site-limits.ts';

/**
 * `RATE_LIMITS` with every limit lifted, derived from the defaults so a limit added later is
 * lifted too: the tests' stacks reach none (test/api/rate-limits.test.ts sets real ones), and
 * the benches measure throughput, not the limits.
 */
export const UNLIMITED_RATE_LIMITS = JSON.stringify(
  Object.fromEntries(
    Object.entries(DEFAULT_LIMITS).map(([name, limit]) => [name, typeof limit === 'number' ? 100_000 : { points: 1_000_000, seconds: 1 }]),
  ),
);
