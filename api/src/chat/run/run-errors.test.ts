import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../db/client.ts';
import { createRedis } from '../../redis/client.ts';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { testRedisUrl } from '../../../../test/support/stores.ts';
import { closedPort } from '../../../../test/support/closed-port.ts';
import { waitUntil } from '../../../../test/support/harness.ts';
import { isInfrastructureError } from './run-errors.ts';

/** Every error here is real: a terminated backend, a closed port, a closed Redis client, a bad statement. */
let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const thrown = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );

describe('isInfrastructureError', () => {
  test('a query whose backend pg_terminate_backend ended (Prisma P2010 over the driver adapter) is infrastructure', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const sleeping = thrown(db.$queryRaw`SELECT pg_sleep(10), 'classify me'`);
      await waitUntil('the sleeping query to be terminated', async () => {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%classify me%' AND pid <> pg_backend_pid() AND datname = current_database()`,
        );
        return (rowCount ?? 0) > 0;
      });
      expect(isInfrastructureError(await sleeping)).toBe(true);
    } finally {
      await admin.end();
    }
  });

  test('a database on a closed port is infrastructure, for raw and model queries alike (P2010, P1001)', async () => {
    const away = createDb(`postgresql://postgres@127.0.0.1:${await closedPort()}/heed`);
    try {
      expect(isInfrastructureError(await thrown(away.$queryRaw`SELECT 1`))).toBe(true);
      expect(isInfrastructureError(await thrown(away.visitor.findMany()))).toBe(true);
    } finally {
      await away.$disconnect();
    }
  });

  test('a closed Redis client is infrastructure', async () => {
    const redis = await createRedis(testRedisUrl(), 'closed-for-test');
    await redis.quit();
    expect(isInfrastructureError(await thrown(redis.get('anything')))).toBe(true);
  });

  test('a bad statement, a bug of ours and a model that cannot be reached are not', async () => {
    expect(isInfrastructureError(await thrown(db.$queryRawUnsafe('SELECT FROM WHERE')))).toBe(false);
    expect(isInfrastructureError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    const offline = new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${await closedPort()}/v1`, maxRetries: 0 });
    const modelDown = await thrown(offline.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(modelDown).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(isInfrastructureError(modelDown)).toBe(false);
  });
});
