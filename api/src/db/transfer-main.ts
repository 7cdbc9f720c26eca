import { createReadStream, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { openFileStore } from '../attachments/store/open-file-store.ts';
import { configSchema } from '../config.ts';
import { openStores } from '../embedded/stores.ts';
import { createDb } from './client.ts';
import { migrate } from './migrate.ts';
import { exportData } from './transfer/export-data.ts';
import { importData } from './transfer/import-data.ts';

/**
 * `npm run db:export -- <file>` writes the database (DATABASE_URL, or the embedded one) to a
 * file; `npm run db:import -- <file>` loads such a file into an empty database (DATABASE_URL,
 * or the embedded one), migrating it first. Moving an embedded installation to a server:
 * stop Heed, export without DATABASE_URL, import with it, start with DATABASE_URL and REDIS_URL.
 * Attached files come along: read from this installation's file store, written to the target's
 * (HEED_DATA_DIR/files, an S3 bucket or PostgreSQL, as `npm start` would choose).
 */
const [command, file] = process.argv.slice(2);
try {
  if ((command !== 'export' && command !== 'import') || !file)
    throw new Error('usage: npm run db:export -- <file>  |  npm run db:import -- <file>');
  const { shape } = configSchema;
  const env = z
    .object({
      DATABASE_URL: shape.DATABASE_URL,
      HEED_DATA_DIR: shape.HEED_DATA_DIR,
      S3_URL: shape.S3_URL,
      S3_ENDPOINT: shape.S3_ENDPOINT,
      S3_BUCKET: shape.S3_BUCKET,
      S3_REGION: shape.S3_REGION,
      S3_ACCESS_KEY_ID: shape.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: shape.S3_SECRET_ACCESS_KEY,
      S3_VIRTUAL_HOSTED: shape.S3_VIRTUAL_HOSTED,
    })
    .parse(process.env);
  const stores = await openStores({ ...env, REDIS_URL: '' }, { role: 'script' });
  const db = createDb(stores.databaseUrl, { max: 2 });
  try {
    await migrate(stores.databaseUrl, { log: () => {} });
    const files = await openFileStore(env, { embeddedDatabase: stores.embeddedDatabase, db });
    try {
      const where = `${stores.embeddedDatabase ? 'the embedded database' : 'DATABASE_URL'} (${files.summary})`;
      if (command === 'export') {
        const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
        const exported = await exportData(stores.databaseUrl, out, files);
        out.end();
        await finished(out);
        const missing = exported.missingFiles > 0 ? `; ${exported.missingFiles} attachment(s) had no file in the store` : '';
        console.log(`[heed] exported ${summary(exported.tables, exported.files)} from ${where} to ${file}${missing}`);
      } else {
        const imported = await importData(stores.databaseUrl, createReadStream(file), files);
        console.log(`[heed] imported ${summary(imported.tables, imported.files)} from ${file} into ${where}`);
      }
    } finally {
      await files.close();
    }
  } finally {
    await db.$disconnect();
    await stores.close();
  }
} catch (err) {
  console.error(`[heed] db:${command ?? '?'} failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

function summary(tables: Record<string, number>, files: number): string {
  const total = Object.values(tables).reduce((a, b) => a + b, 0);
  return `${total} rows (${
    Object.entries(tables)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ') || 'no data'
  }) and ${files} file${files === 1 ? '' : 's'}`;
}
