import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

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
