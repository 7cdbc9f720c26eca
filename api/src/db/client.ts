import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.ts';

export type Db = PrismaClient;
export { Prisma } from './generated/client.ts';

/** A Prisma client over the pg driver adapter (Prisma 7 needs one; see ../shared/STACK.md). */
export function createDb(databaseUrl: string, opts: { max?: number } = {}): Db {
  return createPooledDb(databaseUrl, opts).db;
}

/**
 * The same client with its pg pool in hand, for the metrics' pool readings (`waitingCount`).
 * The adapter ends the pool on `$disconnect` (`disposeExternalPool`).
 */
export function createPooledDb(databaseUrl: string, opts: { max?: number } = {}): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.max ?? 10 });
  return { db: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }), pool };
}
