import { createClient } from 'redis';
import pg from 'pg';
import { startEmbeddedPostgres, type ServerReports } from './embedded-postgres.ts';

/** Where this process keeps its data and coordinates, as resolved at start-up. */
export interface Stores {
  databaseUrl: string;
  redisUrl: string;
  /** the start-up line: which mode each part is in */
  summary: string;
  /** the database is the embedded one this process started */
  embeddedDatabase: boolean;
  /** locks and the event bus live in this process (no REDIS_URL) */
  inProcessCoordination: boolean;
  /** stops what this process started (the embedded database) */
  close(): Promise<void>;
}

/** How long a configured server may take to answer at start-up before it counts as unreachable. */
const PROBE_MS = 5_000;

/** Name of the in-process store's clients (`memory://…`), shared by every client in this process. */
export const IN_PROCESS_REDIS_URL = 'memory://heed';

/**
 * Resolves the database and the coordination store for a process:
 * - `DATABASE_URL` set: that server, which must answer now (never a quiet switch to the
 *   embedded database); unset: an embedded PostgreSQL with its data in `dataDir`.
 * - `REDIS_URL` set: that server, which must answer now; unset: locks, reply text and the
 *   event bus in this process's memory.
 * Without `REDIS_URL` Heed is one process (API and worker together), so a `worker` role refuses.
 */
export async function openStores(
  env: { DATABASE_URL: string; REDIS_URL: string; HEED_DATA_DIR: string },
  opts: { role: 'api' | 'worker' | 'script' } & ServerReports,
): Promise<Stores> {
  if (opts.role === 'worker' && (!env.DATABASE_URL || !env.REDIS_URL)) {
    throw new Error(
      'npm run worker needs DATABASE_URL and REDIS_URL: without them Heed runs as one process, and npm start already runs the API and a worker together.',
    );
  }
  if (env.REDIS_URL) await probeRedis(env.REDIS_URL);
  const redisUrl = env.REDIS_URL || IN_PROCESS_REDIS_URL;
  const coordination = env.REDIS_URL ? `Redis at ${hostOf(env.REDIS_URL)}` : 'in process (one process: API and worker together)';
  if (env.DATABASE_URL) {
    await probePostgres(env.DATABASE_URL);
    return {
      databaseUrl: env.DATABASE_URL,
      redisUrl,
      summary: `database: PostgreSQL at ${hostOf(env.DATABASE_URL)} · coordination: ${coordination}`,
      embeddedDatabase: false,
      inProcessCoordination: !env.REDIS_URL,
      close: async () => {},
    };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: env.HEED_DATA_DIR, log: opts.log, warn: opts.warn });
  return {
    databaseUrl: embedded.url,
    redisUrl,
    summary: `database: embedded PostgreSQL ${embedded.version} in ${embedded.dataDir} · coordination: ${coordination}`,
    embeddedDatabase: true,
    inProcessCoordination: !env.REDIS_URL,
    close: () => embedded.stop(),
  };
}

/** `postgres@db.internal:5432/heed` → `db.internal:5432/heed` (never the password). */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'the configured address';
  }
}

async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_MS });
  try {
    await client.connect();
  } catch (err) {
    // a database that does not exist yet is fine: the migration creates it
    if ((err as { code?: string }).code === '3D000') return;
    throw new Error(
      `DATABASE_URL is set, but PostgreSQL at ${hostOf(url)} does not answer (${reason(err)}): start it, fix the URL, or unset DATABASE_URL to use the embedded database.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(url: string): Promise<void> {
  const client = createClient({ url, socket: { connectTimeout: PROBE_MS, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(
      `REDIS_URL is set, but Redis at ${hostOf(url)} does not answer (${reason(err)}): start it, fix the URL, or unset REDIS_URL to run as one process.`,
    );
  } finally {
    await client.quit().catch(() => {});
  }
}

const reason = (err: unknown) => (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
