import type { Services } from '../services.ts';

export interface Health {
  ok: boolean;
  db: boolean;
  redis: boolean;
}

/** Reachability of the two stores every process depends on. */
export async function checkHealth(s: Services): Promise<Health> {
  const [db, redis] = await Promise.all([
    s.db.$queryRaw`SELECT 1`.then(() => true, () => false),
    s.redis.ping().then((r) => r === 'PONG', () => false),
  ]);
  return { ok: db && redis, db, redis };
}
