import { createClient } from 'redis';
import { UNLIMITED_RATE_LIMITS } from '../../test/support/unlimited-limits.ts';

/** The site key every bench process seeds as its demo site. */
export const BENCH_SITE_KEY = 'bench';

/** The host page the benches' visitors come from (any origin: the bench site allows all). */
export const BENCH_ORIGIN = 'https://shop.example';

/**
 * The environment of a bench's Heed processes (bench/ingest and bench/fanout): its own database
 * and Redis prefix, a port, JSON logs, no title timer, no limits. `extra` adds the section's own.
 */
export function benchProcessEnv(
  o: { databaseUrl: string; redisUrl: string; prefix: string; port: number },
  extra: Record<string, string> = {},
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    REDIS_PREFIX: o.prefix,
    PORT: String(o.port),
    DEMO_SITE_KEY: BENCH_SITE_KEY,
    LOG_LEVEL: 'info',
    LOG_PRETTY: '0',
    TITLE_PASS_MS: '0',
    RATE_LIMITS: UNLIMITED_RATE_LIMITS,
    ...extra,
  };
}

/** Removes the keys a bench's processes left under their prefix. */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (batch.length > 0) await client.del(batch);
  } finally {
    await client.quit();
  }
}
