import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { createPooledDb, Prisma } from './client.ts';
import { rawSql } from './raw-sql.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/**
 * Before the pool's own error listener, a termination that caught a connection just opened for a
 * transaction ended the whole process with an unhandled 'error' event (11 of 30 terminations here),
 * (found by `npm run chaos`, which ends the app's backends while it works).
 */
test('transactions whose connections the server keeps terminating fail one by one; the process never sees an unhandled error', async () => {
  const { db } = createPooledDb(database.url);
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);
  process.prependListener('uncaughtException', onUncaught);
  const name = new URL(database.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: database.url.replace(`/${name}`, '/postgres') });
  await admin.connect();
  let stop = false;
  let attempts = 0;
  const loops = Array.from({ length: 8 }, async () => {
    while (!stop) {
      attempts++;
      try {
        await db.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT pg_sleep(0.005)`;
          await tx.$queryRaw`SELECT 1`;
        });
      } catch {
        // a terminated transaction fails: that is the expected, visible outcome
      }
    }
  });
  try {
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    }
  } finally {
    stop = true;
    await Promise.all(loops);
    process.removeListener('uncaughtException', onUncaught);
    await admin.end();
  }
  expect(uncaught).toEqual([]);
  expect(attempts).toBeGreaterThan(30);
  // and the pool still works afterwards
  expect(await db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  await db.$disconnect();
});

test('idle connections of a pool only the raw path has used, ended by the server, are dropped without an unhandled error; the pool goes on', async () => {
  // the bench found it: a database dropped under a pool Prisma's client never connected (its
  // adapter listens for idle errors only once it has) ended the process
  const { db, pool } = createPooledDb(database.url, { max: 4 });
  const sql = rawSql(pool);
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);
  process.prependListener('uncaughtException', onUncaught);
  try {
    await Promise.all(Array.from({ length: 4 }, () => sql.transaction((tx) => tx.rows(Prisma.sql`SELECT pg_sleep(0.01)`))));
    expect(pool.idleCount).toBe(4);
    const name = new URL(database.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: database.url.replace(`/${name}`, '/postgres') });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await admin.end();
    for (let i = 0; i < 100 && pool.idleCount > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(pool.idleCount).toBe(0);
  } finally {
    process.removeListener('uncaughtException', onUncaught);
  }
  expect(uncaught).toEqual([]);
  expect(await sql.rows<{ one: number }>(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  await db.$disconnect();
});

test('every pooled connection runs without JIT (a plan past jit_above_cost compiled for a second)', async () => {
  const { db } = createPooledDb(database.url, { max: 3 });
  const settings = await Promise.all(Array.from({ length: 3 }, () => db.$transaction((tx) => tx.$queryRaw<{ jit: string }[]>`SHOW jit`)));
  expect(settings.map((rows) => rows[0]?.jit)).toEqual(['off', 'off', 'off']);
  await db.$disconnect();
});
