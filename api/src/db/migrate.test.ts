import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, reserveTestDatabase, type TestDatabase } from '../../../test/support/database.ts';
import { listMigrations, migrate, pendingMigrationNames } from './migrate.ts';

const created: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((database) => database.drop()));
});

/** A database name nobody has created yet; dropped after the test. */
function freshDatabase(): TestDatabase {
  const database = reserveTestDatabase();
  created.push(database);
  return database;
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface Recorded {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

const recorded = (url: string) =>
  query<Recorded>(
    url,
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
  );

describe('migrate', () => {
  it('creates a missing database, its tables, and records every migration as Prisma would', async () => {
    const migrations = await listMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const { url } = freshDatabase();

    const { applied } = await migrate(url);

    expect(applied).toEqual(migrations.map((m) => m.name));
    const tables = await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['Site', 'Visitor', 'Conversation', 'Message', 'Run', 'Event', '_prisma_migrations']),
    );
    const rows = await recorded(url);
    expect(rows).toEqual(
      migrations.map((m) => ({
        migration_name: m.name,
        checksum: m.checksum,
        finished_at: expect.any(Date),
        rolled_back_at: null,
        applied_steps_count: 1,
      })),
    );
    expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('applies nothing when run a second time', async () => {
    const { url } = freshDatabase();
    const first = await migrate(url);
    const lines: string[] = [];

    const second = await migrate(url, { log: (line) => lines.push(line) });

    expect(first.applied.length).toBeGreaterThan(0);
    expect(second.applied).toEqual([]);
    expect(lines.join('\n')).toMatch(/up to date/);
    expect(await recorded(url)).toHaveLength(first.applied.length);
  });

  it('lets two concurrent starters migrate a missing database, applying each migration once', async () => {
    const names = (await listMigrations()).map((m) => m.name);
    const { url } = freshDatabase();

    const [a, b] = await Promise.all([migrate(url), migrate(url)]);

    expect([...a.applied, ...b.applied].sort()).toEqual(names);
    expect((await recorded(url)).map((r) => r.migration_name)).toEqual(names);
  });

  it('refuses to run when an applied migration no longer matches its recorded checksum', async () => {
    const database = await createTestDatabase();
    created.push(database);
    const [first] = await listMigrations();
    const tampered = '0'.repeat(64);
    await query(database.url, 'UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2', [tampered, first!.name]);

    const attempt = migrate(database.url);

    await expect(attempt).rejects.toThrow(
      `applied migration(s) were modified after being applied: ${first!.name} (recorded ${tampered}, file now ${first!.checksum})`,
    );
    // nothing was applied or rewritten, and the advisory lock was released
    expect((await recorded(database.url)).find((r) => r.migration_name === first!.name)?.checksum).toBe(tampered);
    const locks = await query(database.url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks).toEqual([]);
  });
});

describe('pendingMigrationNames', () => {
  it('lists every migration for a missing database or a database never migrated, creating nothing', async () => {
    const names = (await listMigrations()).map((m) => m.name);
    const { url } = freshDatabase();

    expect(await pendingMigrationNames(url)).toEqual(names);
    const exists = await query(withDb(url, 'postgres'), 'SELECT 1 FROM pg_database WHERE datname = $1', [new URL(url).pathname.slice(1)]);
    expect(exists).toEqual([]);

    await query(withDb(url, 'postgres'), `CREATE DATABASE ${pg.escapeIdentifier(new URL(url).pathname.slice(1))}`);
    expect(await pendingMigrationNames(url)).toEqual(names);
    expect(await query(url, "SELECT to_regclass('_prisma_migrations')::text AS found")).toEqual([{ found: null }]);
  });

  it('lists only what is left after a partial history, and nothing once migrated', async () => {
    const database = await createTestDatabase();
    created.push(database);
    const names = (await listMigrations()).map((m) => m.name);
    expect(await pendingMigrationNames(database.url)).toEqual([]);

    await query(database.url, 'DELETE FROM _prisma_migrations WHERE migration_name = $1', [names.at(-1)]);

    expect(await pendingMigrationNames(database.url)).toEqual([names.at(-1)]);
  });
});

function withDb(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
