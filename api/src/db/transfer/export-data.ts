import { once } from 'node:events';
import type { Writable } from 'node:stream';
import pg from 'pg';
import type { FileStore } from '../../attachments/store/file-store.ts';
import { appliedMigrations, quoted, tablesInDependencyOrder } from './tables.ts';

/** Rows per line of the export: bounded memory on either side, whatever the table's size. */
const PAGE = 1_000;
/** Attachment keys read from the snapshot at once; their files are then written one per line. */
const FILE_KEYS_PAGE = 100;
/** Where attachment bytes are kept in PostgreSQL mode: they travel as file lines, whatever the mode, never as table pages. */
const BLOB_TABLE = 'FileBlob';

/**
 * The export's first line: what made it and which schema its rows fit. Then table pages
 * (`ExportPage`), then one line per attached file (`ExportFile`); `migrations` already ties an
 * export to the Heed that can read it, so format 1 stays.
 */
export interface ExportHeader {
  heed: 'export';
  format: 1;
  exportedAt: string;
  /** migration names applied to the source; the target must have the same ones */
  migrations: string[];
}

/** Up to PAGE rows of one table, each as PostgreSQL's `to_jsonb` wrote it. */
export interface ExportPage {
  table: string;
  rows: unknown[];
}

/** One attachment's bytes, for the target's file store (whichever mode it is in). */
export interface ExportFile {
  file: { key: string; mime: string; data: string /* base64 */ };
}

/** What an export wrote: rows per table, files, and files whose row was there but whose bytes were not. */
export interface ExportCounts {
  tables: Record<string, number>;
  files: number;
  missingFiles: number;
}

/**
 * Writes every row of Heed's database to `out` as JSON lines: a header, then
 * `{ "table": …, "rows": [...] }` pages in dependency order, read in one REPEATABLE READ
 * snapshot so the export is consistent while Heed keeps running. Plain JSON of each row
 * (`to_jsonb`), so it moves between PostgreSQL versions (the embedded 18 and a server 15)
 * where a `pg_dump` of one major version does not restore into an older server. The bytes of
 * every attachment in the snapshot follow, read from `files` (a folder, a bucket or `FileBlob`),
 * one file per line, so they reach a target in any mode.
 */
export async function exportData(databaseUrl: string, out: Writable, files: FileStore): Promise<ExportCounts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  let written = 0;
  let missingFiles = 0;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const header: ExportHeader = {
      heed: 'export',
      format: 1,
      exportedAt: new Date().toISOString(),
      migrations: await appliedMigrations(client),
    };
    await write(out, header);
    for (const table of await tablesInDependencyOrder(client)) {
      if (table.name === BLOB_TABLE) continue;
      let count = 0;
      const cols = table.columns.map(quoted).join(', ');
      // a cursor walks the table once, a page at a time, inside the snapshot
      await client.query(
        `DECLARE rows_cursor NO SCROLL CURSOR FOR SELECT to_jsonb(t) AS row FROM (SELECT ${cols} FROM ${quoted(table.name)}) t`,
      );
      for (;;) {
        const { rows } = await client.query<{ row: unknown }>(`FETCH ${PAGE} FROM rows_cursor`);
        if (rows.length === 0) break;
        count += rows.length;
        await write(out, { table: table.name, rows: rows.map((r) => r.row) });
      }
      await client.query('CLOSE rows_cursor');
      counts[table.name] = count;
    }
    // the files of the snapshot's attachments (a key shared by several rows travels once)
    await client.query(
      `DECLARE files_cursor NO SCROLL CURSOR FOR SELECT DISTINCT ON ("storeKey") "storeKey" AS key, mime FROM "Attachment" ORDER BY "storeKey"`,
    );
    for (;;) {
      const { rows } = await client.query<{ key: string; mime: string }>(`FETCH ${FILE_KEYS_PAGE} FROM files_cursor`);
      if (rows.length === 0) break;
      for (const { key, mime } of rows) {
        const bytes = await files.get(key);
        // a row swept or deleted since the snapshot: its file went with it
        if (!bytes) missingFiles++;
        else {
          await write(out, { file: { key, mime, data: bytes.toString('base64') } } satisfies ExportFile);
          written++;
        }
      }
    }
    await client.query('CLOSE files_cursor');
    await client.query('COMMIT');
    return { tables: counts, files: written, missingFiles };
  } finally {
    await client.end();
  }
}

async function write(out: Writable, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
}
