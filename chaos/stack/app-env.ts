import { randomBytes } from 'node:crypto';
import { UNLIMITED_RATE_LIMITS } from '../../test/support/unlimited-limits.ts';
import { PIPELINE } from '../settings.ts';

/** Redis key prefix of the run's processes (the tap listens under it). */
export const REDIS_PREFIX = 'heed-chaos:';

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
    // no scripted visitor reaches a rate limit (25 visitors send 5,000 messages); the pending-batch cap
    // (PENDING_MAX_MESSAGES) stays: a sender it refuses waits and sends the same message again
    RATE_LIMITS: UNLIMITED_RATE_LIMITS,
    ...timings,
  };
}
