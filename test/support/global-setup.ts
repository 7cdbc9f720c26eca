import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { startEmbeddedPostgres } from '../../api/src/embedded/embedded-postgres.ts';
import { dropLeftoverTestDatabases, dropStaleTestTemplates, ensureTestTemplate, testDatabaseServerUrl } from './database.ts';

/**
 * vitest `globalSetup`: picks the stores (the PostgreSQL and Redis servers when both answer,
 * else — or with HEED_EMBEDDED=1 — an embedded PostgreSQL and in-process coordination), then,
 * before any worker starts, clears databases left by interrupted runs and builds the migrated
 * template once, so workers find it current and go straight to cloning it (templates of other
 * migrations, untouched for a day, are dropped). Workers are forked after this and inherit the
 * choice through the environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  let stop = async () => {};
  if (process.env.HEED_EMBEDDED !== '1' && !(await serversAnswer())) {
    console.log('tests: no PostgreSQL/Redis server answers on 127.0.0.1: running in the embedded mode');
    process.env.HEED_EMBEDDED = '1';
  }
  if (process.env.HEED_EMBEDDED === '1') {
    // a fresh cluster per run (two runs at once never share one), in the project's ignored folder
    const dataDir = join(process.cwd(), '.heed', `test-embedded-${process.pid}`);
    await rm(dataDir, { recursive: true, force: true });
    const embedded = await startEmbeddedPostgres({ dataDir });
    process.env.TEST_DATABASE_SERVER_URL = embedded.url.replace(/\/[^/]*$/, '');
    console.log(`tests: embedded PostgreSQL ${embedded.version}, in-process coordination`);
    stop = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const runStartedAt = new Date();
  const dropped = await dropLeftoverTestDatabases(runStartedAt);
  if (dropped.length > 0) console.log(`test databases: dropped ${dropped.length} left by earlier runs`);
  await ensureTestTemplate();
  const stale = await dropStaleTestTemplates();
  if (stale.length > 0) console.log(`test templates: dropped ${stale.length} built from other migrations`);
  return stop;
}

/** Both servers of the default (or configured) addresses answer within a second. */
async function serversAnswer(): Promise<boolean> {
  const db = new pg.Client({ connectionString: `${testDatabaseServerUrl()}/postgres`, connectionTimeoutMillis: 1_000 });
  const redis = createClient({
    url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    socket: { connectTimeout: 1_000, reconnectStrategy: false },
  });
  redis.on('error', () => {});
  try {
    await db.connect();
    await redis.connect();
    return true;
  } catch {
    return false;
  } finally {
    await db.end().catch(() => {});
    await redis.quit().catch(() => {});
  }
}
