import { listMigrations } from '../db/migrate.ts';
import type { Services } from '../services.ts';
import { answersWithin } from './answers-within.ts';

export interface Health {
  ok: boolean;
  db: boolean;
  redis: boolean;
}

/**
 * How long a probe waits for each store. A store that does not answer by then counts as down:
 * a database that is frozen (SIGSTOP) or cut off by a network that drops packets hangs a query
 * without an error, and a probe that hung with it would tell a load balancer or an operator
 * nothing. Within the 2–5 s that load balancers give a health check by default.
 */
export const PROBE_MS = 2_000;

/** Reachability of the two stores every process depends on. */
export async function checkHealth(s: Services): Promise<Health> {
  const [db, redis] = await Promise.all([
    probe(s, 'db', () => s.db.$queryRaw`SELECT 1`.then(() => true)),
    probe(s, 'redis', () => s.redis.ping().then((r) => r === 'PONG')),
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
  const [health, migrations] = await Promise.all([
    checkHealth(s),
    probe(s, 'migrations', async () => {
      const names = await (shipped ??= listMigrations().then((ms) => ms.map((m) => m.name)));
      const rows = await s.db.$queryRaw<{ migration_name: string }[]>`
        SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
      const applied = new Set(rows.map((r) => r.migration_name));
      return names.every((n) => applied.has(n));
    }),
  ]);
  return { ...health, migrations, ok: health.ok && migrations };
}

/** Each check still waiting for its store, per process's services. */
const waiting = new WeakMap<Services, Map<string, Promise<boolean>>>();

/**
 * One check of a store, bounded by {@link PROBE_MS}. While an earlier probe's check still waits
 * (its store frozen), later probes wait on that same one: a probe every second against a hung
 * database holds one query, not one more each time.
 */
function probe(s: Services, name: string, check: () => Promise<boolean>): Promise<boolean> {
  const checks = waiting.get(s) ?? new Map<string, Promise<boolean>>();
  waiting.set(s, checks);
  let pending = checks.get(name);
  if (!pending) {
    pending = check()
      .catch(() => false)
      .finally(() => checks.delete(name));
    checks.set(name, pending);
  }
  return answersWithin(pending, PROBE_MS);
}
