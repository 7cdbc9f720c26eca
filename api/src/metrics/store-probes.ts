import type pg from 'pg';
import { answersWithin } from '../http/answers-within.ts';
import type { Redis } from '../redis/client.ts';
import { type MetricProbes, REDIS_PROBE_MS } from './metrics.ts';

/**
 * The scrape-time readings of the database pool and Redis. The ping is raced against a
 * short timer: node-redis queues commands while it reconnects, so an unbounded ping would
 * hold the scrape until Redis came back.
 */
export function storeProbes(pool: pg.Pool, redis: Redis): MetricProbes {
  return {
    dbPool: () => ({ waiting: pool.waitingCount, total: pool.totalCount, idle: pool.idleCount }),
    redisUp: () =>
      answersWithin(
        redis.ping().then((r) => r === 'PONG'),
        REDIS_PROBE_MS,
      ),
  };
}
