import type pg from 'pg';

/** One table as a transfer sees it: its columns that hold data, and its serial columns. */
export interface TableShape {
  name: string;
  /** every column except generated ones (the target computes those itself) */
  columns: string[];
  /** columns fed by a sequence (`Message.seq`, `Event.id`): the target's sequence moves past them */
  serials: string[];
}

/**
 * Heed's tables in an order where every table comes after the tables it references, read from
 * the catalogue (so a table added by a later migration is moved without touching this code).
 * Prisma's `_prisma_migrations` is not data: the target has its own, from the same migrations.
 */
export async function tablesInDependencyOrder(client: pg.Client | pg.PoolClient): Promise<TableShape[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations' ORDER BY c.relname`,
  );
  const { rows: refs } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' AND c.relname <> p.relname`,
  );
  const { rows: columns } = await client.query<{ table: string; column: string; serial: boolean }>(
    `SELECT c.relname AS table, a.attname AS column, coalesce(pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%', false) AS serial
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY c.relname, a.attnum`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables.map((t) => t.name));
  while (pending.size > 0) {
    const ready = [...pending].filter((t) => !refs.some((r) => r.child === t && pending.has(r.parent)));
    if (ready.length === 0) throw new Error(`tables reference each other in a cycle: ${[...pending].join(', ')}`);
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t);
    }
  }
  return ordered.map((name) => ({
    name,
    columns: columns.filter((c) => c.table === name).map((c) => c.column),
    serials: columns.filter((c) => c.table === name && c.serial).map((c) => c.column),
  }));
}

/** `"Message"`: an identifier quoted for SQL (names come from the catalogue, never from input). */
export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The migrations applied to a database, by name in order: an export and its target must agree on them. */
export async function appliedMigrations(client: pg.Client | pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ migration_name: string }>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
  );
  return rows.map((m) => m.migration_name);
}
