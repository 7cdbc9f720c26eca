import OpenAI from 'openai';
import type { Config } from './config.ts';
import { createPooledDb, type Db } from './db/client.ts';
import { EventBus } from './events/event-bus.ts';
import { createRedis, keys as makeKeys, type Keys, type Redis } from './redis/client.ts';
import { SitePolicies } from './sites/site-policy.ts';
import { describeError } from './logging/describe-error.ts';
import { Limits } from './limits/limits.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { storeProbes } from './metrics/store-probes.ts';

/** The process's connections, created once and passed down (no module-level singletons). */
export interface Services {
  config: Config;
  db: Db;
  /** commands and publishes */
  redis: Redis;
  /** a dedicated pub/sub connection (a subscribed connection can run nothing else) */
  subscriber: Redis;
  keys: Keys;
  bus: EventBus;
  /** per-site policy (allowed origins, identity), cached for a few seconds */
  sites: SitePolicies;
  /** rate limits (Redis, with in-memory insurance) and each site's limits, cached for a few seconds */
  limits: Limits;
  openai: OpenAI;
  /** the process's Prometheus registry and metrics (`GET /metrics`) */
  metrics: Metrics;
  log: (line: string, extra?: unknown) => void;
  close(): Promise<void>;
}

export async function createServices(config: Config, opts: { log?: Services['log'] } = {}): Promise<Services> {
  const { db, pool } = createPooledDb(config.DATABASE_URL);
  const redis = await createRedis(config.REDIS_URL, 'heed');
  const subscriber = await createRedis(config.REDIS_URL, 'heed-sub');
  const keys = makeKeys(config.REDIS_PREFIX);
  const bus = new EventBus(redis, subscriber, keys);
  const sites = new SitePolicies(db);
  // Retries are ours (with backoff and visible failure), so the SDK's own are off.
  const openai = new OpenAI({
    apiKey: config.OPENAI_API_KEY ?? 'not-needed-for-local-model',
    baseURL: config.OPENAI_BASE_URL,
    maxRetries: 0,
  });
  const sink = opts.log ?? ((line: string, extra?: unknown) => (extra === undefined ? console.log(`[heed] ${line}`) : console.error(`[heed] ${line}: ${extra}`)));
  // every error passes through describeError: no message text, prompt or query data reaches a log
  const log = (line: string, extra?: unknown) => sink(line, extra === undefined ? undefined : describeError(extra));
  return {
    config,
    db,
    redis,
    subscriber,
    keys,
    bus,
    sites,
    limits: new Limits({ sites, redis, prefix: config.REDIS_PREFIX, deploymentOverrides: config.RATE_LIMITS }),
    openai,
    metrics: createMetrics(storeProbes(pool, redis)),
    log,
    async close() {
      await Promise.allSettled([db.$disconnect(), redis.quit(), subscriber.quit()]);
    },
  };
}
