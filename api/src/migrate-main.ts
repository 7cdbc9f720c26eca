import { z } from 'zod';
import { configSchema } from './config.ts';
import { migrate } from './db/migrate.ts';

/**
 * `npm run db:migrate`: the release step that applies pending migrations to DATABASE_URL (creating
 * the database if needed) and exits. Reads only DATABASE_URL, so it runs with the deploy's database
 * credentials alone; safe beside running processes and other migrators (an advisory lock serializes them).
 */
try {
  const { DATABASE_URL } = z.object({ DATABASE_URL: configSchema.shape.DATABASE_URL }).parse(process.env);
  const { applied } = await migrate(DATABASE_URL, { log: (line) => console.log(`[heed] ${line}`) });
  console.log(`[heed] migrate: done, ${applied.length} applied`);
} catch (err) {
  // One line for the person deploying, as a refused start prints; no stack trace.
  console.error(`[heed] migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
