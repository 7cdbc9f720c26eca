import { randomBytes } from 'node:crypto';
import { DEFAULT_LIMITS } from '../../api/src/limits/site-limits.ts';
import { PIPELINE } from '../settings.ts';

/** Redis key prefix of the run's processes (the tap listens under it). */
export const REDIS_PREFIX = 'heed-chaos:';

/**
 * Rate limits no scripted visitor reaches (5,000 messages from 25 visitors would trip the
 * per-visitor send limits at once), derived from the defaults as the test harness does, so a
 * limit added later is lifted here too. The pending-batch cap (PENDING_MAX_MESSAGES) stays:
 * a sender refused by it waits and sends the same message again.
 */
const UNLIMITED = JSON.stringify(
  Object.fromEntries(Object.entries(DEFAULT_LIMITS).map(([name, limit]) => [name, typeof limit === 'number' ? 100_000 : { points: 1_000_000, seconds: 1 }])),
);

/**
 * The environment of every API and worker process of the run: production mode (migrations
 * were applied as a release step), the suite's Redis and model server, no demo site, no title
 * timer (its model calls would only add noise to the recordings), short timings (settings.ts).
 */
export function appEnv(opts: { databaseUrl: string; redisUrl: string; modelUrl: string }): NodeJS.ProcessEnv {
  const timings = Object.fromEntries(Object.entries(PIPELINE).map(([k, v]) => [k, String(v)]));
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    HEED_SECRET: randomBytes(24).toString('hex'),
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    REDIS_PREFIX,
    OPENAI_BASE_URL: opts.modelUrl,
    OPENAI_API_KEY: 'chaos-run',
    OPENAI_MODEL: 'chaos-model',
    MODEL_PRICE_INPUT_USD: '0',
    MODEL_PRICE_OUTPUT_USD: '0',
    TITLE_PASS_MS: '0',
    DEMO_SITE_KEY: '',
    RATE_LIMITS: UNLIMITED,
    ...timings,
  };
}
