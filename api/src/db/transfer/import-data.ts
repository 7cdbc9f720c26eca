import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { checkStoreKey, type FileStore } from '../../attachments/store/file-store.ts';
import type { ExportFile, ExportHeader, ExportPage } from './export-data.ts';
import { appliedMigrations, quoted, tablesInDependencyOrder, type TableShape } from './tables.ts';

/**
 * Loads an export (`exportData`) into an empty, migrated Heed database in one transaction:
 * all of it or none. Refuses a target that already holds sites, and an export made at
 * another schema version (migrate both to the same version first). Generated columns (the
 * search vector) are computed by the target; sequences move past the imported ids. Attached
 * files go to `files`, the target's store in whatever mode it is: a store is no part of the
 * transaction, so when the import fails the files it already wrote are deleted again.
 */
export async function importData(
  databaseUrl: string,
  input: Readable,
  files: FileStore,
): Promise<{ tables: Record<string, number>; files: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
  const written: string[] = [];
  try {
    await client.query('BEGIN');
    const shapes = new Map((await tablesInDependencyOrder(client)).map((t) => [t.name, t]));
    const { rows: sites } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM "Site"');
    if ((sites[0]?.n ?? 0) > 0) throw new Error('the target database already holds sites: import into an empty Heed database');
    const applied = await appliedMigrations(client);
    let header: ExportHeader | null = null;
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as ExportHeader | ExportPage | ExportFile;
      if ('heed' in item) {
        header = checkHeader(item, applied);
        continue;
      }
      if (!header) throw new Error('not a Heed export: the first line must be its header');
      if ('file' in item) {
        const { key, mime, data } = item.file;
        written.push(checkStoreKey(key));
        await files.put(key, Buffer.from(data, 'base64'), mime);
        continue;
      }
      const shape = shapes.get(item.table);
      if (!shape) throw new Error(`the export holds a table this database does not have: ${item.table}`);
      await insertPage(client, shape, item.rows);
      counts[item.table] = (counts[item.table] ?? 0) + item.rows.length;
    }
    if (!header) throw new Error('the file is empty: nothing to import');
    for (const shape of shapes.values()) {
      for (const column of shape.serials) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), greatest(coalesce((SELECT max(${quoted(column)}) FROM ${quoted(shape.name)}), 0), 1))`,
          [quoted(shape.name), column],
        );
      }
    }
    await client.query('COMMIT');
    return { tables: counts, files: written.length };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    // the rows that named them are gone: files left would be unused bytes
    await files.delete(written).catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

function checkHeader(header: ExportHeader, applied: string[]): ExportHeader {
  if (header.heed !== 'export' || header.format !== 1) throw new Error('not a Heed export (format 1)');
  const same = header.migrations.length === applied.length && header.migrations.every((m, i) => m === applied[i]);
  if (!same) {
    throw new Error(
      `the export's schema (${header.migrations.at(-1) ?? 'none'}) differs from the target's (${applied.at(-1) ?? 'none'}): bring both to the same version with npm run db:migrate first`,
    );
  }
  return header;
}

/** One page of rows, as one INSERT … SELECT from the JSON (the table's own column types do the parsing). */
async function insertPage(client: pg.Client, shape: TableShape, rows: unknown[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = shape.columns.map(quoted).join(', ');
  await client.query(
    `INSERT INTO ${quoted(shape.name)} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${quoted(shape.name)}, $1::jsonb)`,
    [JSON.stringify(rows)],
  );
}
