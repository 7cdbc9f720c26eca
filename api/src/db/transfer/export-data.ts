import { once } from 'node:events';
import type { Writable } from 'node:stream';
import pg from 'pg';
import { appliedMigrations, quoted, tablesInDependencyOrder } from './tables.ts';

/** Rows per line of the export: bounded memory on either side, whatever the table's size. */
const PAGE = 1_000;

/** The export's first line: what made it and which schema its rows fit. */
export interface ExportHeader {
  heed: 'export';
  format: 1;
  exportedAt: string;
  /** migration names applied to the source; the target must have the same ones */
  migrations: string[];
}

/**
 * Writes every row of Heed's database to `out` as JSON lines: a header, then
 * `{ "table": …, "rows": [...] }` pages in dependency order, read in one REPEATABLE READ
 * snapshot so the export is consistent while Heed keeps running. Plain JSON of each row
 * (`to_jsonb`), so it moves between PostgreSQL versions (the embedded 18 and a server 15)
 * where a `pg_dump` of one major version does not restore into an older server.
 */
export async function exportData(databaseUrl: string, out: Writable): Promise<{ tables: Record<string, number> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const counts: Record<string, number> = {};
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
    await client.query('COMMIT');
    return { tables: counts };
  } finally {
    await client.end();
  }
}

async function write(out: Writable, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
}
