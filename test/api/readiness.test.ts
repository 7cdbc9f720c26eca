import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHttpServer } from '../../api/src/http/server.ts';
import { memoryDestination } from '../../api/src/logging/memory-destination.ts';
import { createServices } from '../../api/src/services.ts';
import { listen, TestHeed, waitUntil } from '../support/harness.ts';
import { severableProxy, type SeverableProxy } from '../support/severable-proxy.ts';

/** `/readyz` says whether this process can serve: stores reachable and the schema current. */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());

test('ready with both stores up and every migration applied; not ready (503) while a migration is missing, alive all along', async () => {
  const ready = await fetch(`${heed.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ ok: true, db: true, redis: true, migrations: true });

  // as if this code were deployed before `npm run db:migrate` applied its newest migration
  const db = heed.services.db;
  const [newest] = await db.$queryRaw<{ id: string }[]>`SELECT id FROM "_prisma_migrations" ORDER BY migration_name DESC LIMIT 1`;
  await db.$executeRaw`UPDATE "_prisma_migrations" SET finished_at = NULL WHERE id = ${newest!.id}`;
  try {
    const notReady = await fetch(`${heed.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ ok: false, migrations: false, db: true });
    expect((await fetch(`${heed.url}/healthz`)).status).toBe(200);
  } finally {
    await db.$executeRaw`UPDATE "_prisma_migrations" SET finished_at = now() WHERE id = ${newest!.id}`;
  }
  expect((await fetch(`${heed.url}/readyz`)).status).toBe(200);
});

test('a store that stops answering without failing (frozen, blackholed) makes both probes answer 503 naming it, not hang; ready again once it answers', async () => {
  const dbUrl = new URL(heed.config.DATABASE_URL);
  const redisUrl = new URL(heed.config.REDIS_URL!);
  const db = await severableProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
  const redis = await severableProxy({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) });
  dbUrl.port = String(db.port);
  redisUrl.port = String(redis.port);
  // a process of its own whose stores sit behind the proxies
  const services = await createServices(
    { ...heed.config, DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl.toString() },
    { logTo: memoryDestination() },
  );
  const server = await createHttpServer(services);
  const url = `http://127.0.0.1:${await listen(server)}`;
  // a hung probe fails the test here (the fetch gives up), where before the change it waited for the store
  const probe = async (path: string) => {
    const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(15_000) });
    return { status: response.status, body: await response.json() };
  };
  const frozen = async (proxy: SeverableProxy, body: object) => {
    proxy.freeze();
    try {
      // twice: the second probe finds the first one's query still waiting, and answers all the same
      for (let i = 0; i < 2; i++) {
        expect(await probe('/healthz')).toEqual({ status: 503, body: { ok: false, ...body } });
        expect(await probe('/readyz')).toMatchObject({ status: 503, body: { ok: false, ...body } });
      }
    } finally {
      proxy.thaw();
    }
    // a thawed store answers the query held back, then the next
    await waitUntil('/readyz answering 200 again', async () => (await probe('/readyz')).status === 200);
  };
  try {
    expect(await probe('/readyz')).toEqual({ status: 200, body: { ok: true, db: true, redis: true, migrations: true } });
    await frozen(db, { db: false, redis: true });
    await frozen(redis, { db: true, redis: false });
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await services.close();
    await Promise.all([db.close(), redis.close()]);
  }
});
