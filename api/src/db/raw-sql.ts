import type pg from 'pg';
import type { Prisma } from './client.ts';
import type { DbLike } from './types.ts';

/**
 * Statements on the pool itself, past Prisma's client: for the hot path's statements, whose rows
 * are plain strings, numbers and JSON. Prisma's `$queryRaw` costs ~0.45 ms of CPU a statement
 * here, pg's own query ~0.11 (1,000 `SELECT 1` each, measured on this machine), and a Prisma
 * interactive transaction adds its own bookkeeping around BEGIN and COMMIT (the claim's
 * five statements and a send group's five sit on the debounce and ingest benches' paths).
 * The same `Prisma.sql` templates serve both: their `text` and `values` are pg's.
 *
 * Rows come back as pg types them: int8 and numeric as strings (not BigInt), timestamps as Date,
 * json as parsed values. Statements shared with Prisma's client cast int8 to text, so both agree.
 */
export interface RawSql {
  rows<T>(statement: Prisma.Sql): Promise<T[]>;
  /** the number of rows the statement changed (an UPDATE's, an INSERT's) */
  count(statement: Prisma.Sql): Promise<number>;
}

/** The pool's statements, and transactions on one of its connections. */
export interface RawDb extends RawSql {
  /**
   * Runs `work` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK
   * when it throws (the error passes on). A connection that failed under the transaction is
   * dropped from the pool, not handed out again.
   */
  transaction<T>(work: (tx: RawSql) => Promise<T>): Promise<T>;
}

export function rawSql(pool: pg.Pool): RawDb {
  return {
    ...statementsOn(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const value = await work(statementsOn(client));
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}

/** Prisma's client (or a transaction of it) seen as {@link RawSql}, for a statement both paths share. */
export function rawSqlOf(tx: DbLike): RawSql {
  return {
    rows: <T>(statement: Prisma.Sql) => tx.$queryRaw<T[]>(statement),
    count: (statement) => tx.$executeRaw(statement),
  };
}

function statementsOn(queryable: pg.Pool | pg.PoolClient): RawSql {
  return {
    rows: async <T>(statement: Prisma.Sql) => (await queryable.query(statement.text, statement.values)).rows as T[],
    count: async (statement) => (await queryable.query(statement.text, statement.values)).rowCount ?? 0,
  };
}
