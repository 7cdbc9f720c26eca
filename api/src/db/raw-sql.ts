import type pg from 'pg';
import type { Prisma } from './client.ts';

/**
 * Statements on the pool itself, past Prisma's client: for hot reads whose rows are plain strings
 * and numbers. Prisma's `$queryRaw` costs ~0.45 ms of CPU a statement here, pg's own query ~0.11
 * (1,000 `SELECT 1` each, measured on this machine); the worker's due-batches poll (1.0 ms of CPU
 * through Prisma) shares its event loop with the claim it has just launched (issue 11).
 * The same `Prisma.sql` templates serve both: their `text` and `values` are pg's.
 *
 * Rows come back as pg types them: int8 and numeric as strings (not BigInt), timestamps as Date.
 */
export interface RawSql {
  rows<T>(statement: Prisma.Sql): Promise<T[]>;
}

export function rawSql(pool: pg.Pool): RawSql {
  return {
    rows: async <T>(statement: Prisma.Sql) => (await pool.query(statement.text, statement.values)).rows as T[],
  };
}
