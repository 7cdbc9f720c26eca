import { z } from 'zod';
import { configSchema } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openStores } from './embedded/stores.ts';

/**
 * `npm run db:migrate`: the release step that applies pending migrations to DATABASE_URL (creating
 * the database if needed) and exits. Reads only DATABASE_URL, so it runs with the deploy's database
 * credentials alone; safe beside running processes and other migrators (an advisory lock serializes them).
 * Without DATABASE_URL it migrates the embedded database (while no Heed process runs on it).
 */
try {
  const env = z
    .object({ DATABASE_URL: configSchema.shape.DATABASE_URL, HEED_DATA_DIR: configSchema.shape.HEED_DATA_DIR })
    .parse(process.env);
  // the coordination store plays no part in a migration: the in-process one is never connected
  const stores = await openStores({ ...env, REDIS_URL: '' }, { role: 'script' });
  const { applied } = await migrate(stores.databaseUrl, { log: (line) => console.log(`[heed] ${line}`) });
  await stores.close();
  console.log(`[heed] migrate: done, ${applied.length} applied`);
} catch (err) {
  // One line for the person deploying, as a refused start prints; no stack trace.
  console.error(`[heed] migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
