import { listMigrations } from '../db/migrate.ts';
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

export interface Readiness extends Health {
  /** every migration this code ships is applied to the database */
  migrations: boolean;
}

/** The migrations this code ships, read once per process (they change only with a deploy). */
let shipped: Promise<string[]> | null = null;

/**
 * `/readyz`: whether this process can serve traffic: both stores answer and the database
 * holds every migration this code expects (a process started before `npm run db:migrate`
 * finished is alive but not ready). `/healthz` stays the liveness probe.
 */
export async function checkReadiness(s: Services): Promise<Readiness> {
  shipped ??= listMigrations().then((ms) => ms.map((m) => m.name));
  const [health, migrations] = await Promise.all([
    checkHealth(s),
    Promise.all([shipped, s.db.$queryRaw<{ migration_name: string }[]>`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`]).then(
      ([names, rows]) => {
        const applied = new Set(rows.map((r) => r.migration_name));
        return names.every((n) => applied.has(n));
      },
      () => false,
    ),
  ]);
  return { ...health, migrations, ok: health.ok && migrations };
}
