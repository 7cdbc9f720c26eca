import { createReadStream, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { configSchema } from '../config.ts';
import { openStores } from '../embedded/stores.ts';
import { migrate } from './migrate.ts';
import { exportData } from './transfer/export-data.ts';
import { importData } from './transfer/import-data.ts';

/**
 * `npm run db:export -- <file>` writes the database (DATABASE_URL, or the embedded one) to a
 * file; `npm run db:import -- <file>` loads such a file into an empty database (DATABASE_URL,
 * or the embedded one), migrating it first. Moving an embedded installation to a server:
 * stop Heed, export without DATABASE_URL, import with it, start with DATABASE_URL and REDIS_URL.
 */
const [command, file] = process.argv.slice(2);
try {
  if ((command !== 'export' && command !== 'import') || !file)
    throw new Error('usage: npm run db:export -- <file>  |  npm run db:import -- <file>');
  const env = z
    .object({ DATABASE_URL: configSchema.shape.DATABASE_URL, HEED_DATA_DIR: configSchema.shape.HEED_DATA_DIR })
    .parse(process.env);
  const stores = await openStores({ ...env, REDIS_URL: '' }, { role: 'script' });
  try {
    await migrate(stores.databaseUrl, { log: () => {} });
    const where = stores.embeddedDatabase ? 'the embedded database' : 'DATABASE_URL';
    if (command === 'export') {
      const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      const { tables } = await exportData(stores.databaseUrl, out);
      out.end();
      await finished(out);
      console.log(`[heed] exported ${summary(tables)} from ${where} to ${file}`);
    } else {
      const { tables } = await importData(stores.databaseUrl, createReadStream(file));
      console.log(`[heed] imported ${summary(tables)} from ${file} into ${where}`);
    }
  } finally {
    await stores.close();
  }
} catch (err) {
  console.error(`[heed] db:${command ?? '?'} failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

function summary(tables: Record<string, number>): string {
  const total = Object.values(tables).reduce((a, b) => a + b, 0);
  return `${total} rows (${
    Object.entries(tables)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ') || 'no data'
  })`;
}
