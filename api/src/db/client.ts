import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;
export { Prisma } from './generated/client.ts';

/** A Prisma client over the pg driver adapter: Prisma 7 needs one (`new PrismaClient({ adapter })`); prisma.config.ts holds the URL for the CLI. */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  return createPooledDb(databaseUrl, opts).db;
}

/**
 * The same client with its pg pool in hand, for the metrics' pool readings (`waitingCount`).
 * The adapter ends the pool on `$disconnect` (`disposeExternalPool`).
 */
export function createPooledDb(databaseUrl: string, opts: { max?: number } = {}): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    // No JIT: Heed's statements are short, and a plan whose estimate passes jit_above_cost (the
    // console's searches come near it on large sites) spent up to 1.4 s compiling what runs in
    // milliseconds. A session setting before the connection is handed out, not a startup option,
    // which proxies such as PgBouncer refuse; harmless where refused.
    onConnect: (client) => client.query('SET jit = off').then(noop, noop),
  });
  // A new connection the server ends at once (pg_terminate_backend, a failover) can report it in the
  // same read as its ReadyForQuery: pg-pool has handed it out, the adapter has not yet listened on it,
  // and an 'error' event with no listener ends the process (seen in `npm run chaos`). The query or
  // transaction that holds it fails on its own, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  // An idle connection the server ends (the same causes) is dropped by pg-pool, which then emits
  // 'error' on the pool itself: unheard, that ends the process too. Prisma's adapter listens only
  // once its client has connected, and the hot path's statements (raw-sql.ts) may come first (a
  // worker's polls do). The next statement gets a fresh connection.
  pool.on('error', () => undefined);
  return { db: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }), pool };
}

const noop = () => undefined;
