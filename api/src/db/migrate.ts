import { createHash, randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../project-root.ts';

/**
 * Applies `prisma/migrations/<name>/migration.sql` files in name order, with Prisma's own
 * `_prisma_migrations` bookkeeping, so `prisma migrate deploy` would agree with what we did. Prisma's
 * CLI downloads a native schema engine on every command, which is not possible on machines without
 * internet access, so migrations are applied here (docs/architecture/decisions/own-migration-runner.md).
 */

/** Resolved from the code's location, not `process.cwd()`: the API, workers and tests start from anywhere. */
const MIGRATIONS_DIR = `${PROJECT_ROOT}prisma/migrations/`;

/**
 * The key Prisma's schema engine itself locks (`SELECT pg_advisory_lock(72707369)`), so our
 * starters also serialize with a `prisma migrate deploy` run against the same database.
 * Advisory locks are scoped to one database, so different databases never wait on each other.
 */
const PRISMA_MIGRATE_LOCK = 72707369;

/** Prisma's DDL for PostgreSQL, column for column (copied from the schema engine). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
/** Two racing `CREATE DATABASE`s can also collide on pg_database's unique name index. */
const UNIQUE_VIOLATION = '23505';

/** One folder of `prisma/migrations`. */
export interface MigrationFile {
  /** folder name, e.g. `20261129232000_init`; also the `migration_name` Prisma records */
  name: string;
  /** sha256 hex of the file's bytes, what Prisma stores in `checksum` */
  checksum: string;
  sql: string;
}

/**
 * Reads the migration folders in the order they are applied.
 *
 * @example
 * const names = (await listMigrations()).map((m) => m.name);
 */
export async function listMigrations(dir: string = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(dir, name, 'migration.sql')).catch((error: unknown) => {
        throw new Error(`Migration folder ${name} has no readable migration.sql (${String(error)})`);
      });
      return { name, checksum: sha256(bytes), sql: bytes.toString('utf8') };
    }),
  );
}

/**
 * Brings the database at `databaseUrl` up to date with `prisma/migrations`, creating the database
 * if it does not exist. Safe to call from several processes at once: an advisory lock lets one
 * apply while the others wait, then find nothing left to do. Each migration runs in its own
 * transaction, so a failing one leaves neither its changes nor a bookkeeping row behind.
 *
 * Refuses (throws before applying anything) when an applied migration's file has changed, or when
 * the table records a failed migration (left by the Prisma CLI; resolve it with `prisma migrate resolve`).
 *
 * @example
 * const { applied } = await migrate(env.DATABASE_URL, { log: (line) => logger.info(line) });
 */
export async function migrate(databaseUrl: string, opts: { log?: (line: string) => void } = {}): Promise<{ applied: string[] }> {
  const log = opts.log ?? (() => {});
  const migrations = await listMigrations();
  const client = await connectCreatingDatabase(databaseUrl, log);
  try {
    await lock(client, log);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const pending = await pendingMigrations(client, migrations, log);
      const applied: string[] = [];
      for (const migration of pending) {
        await apply(client, migration, log);
        applied.push(migration.name);
      }
      if (applied.length === 0) log(`migrate: ${databaseName(databaseUrl)} is up to date`);
      return { applied };
    } finally {
      // Closing the session releases the lock anyway; never let this hide the original error.
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}

/**
 * The names of the migrations `migrate()` would apply, in order, without applying or creating
 * anything: all of them when the database or its `_prisma_migrations` table does not exist yet.
 * Refuses as `migrate()` does when the recorded history disagrees with the folder.
 *
 * @example
 * const pending = await pendingMigrationNames(env.DATABASE_URL); // ['20261130231240_security']
 */
export async function pendingMigrationNames(databaseUrl: string, opts: { log?: (line: string) => void } = {}): Promise<string[]> {
  const migrations = await listMigrations();
  const all = migrations.map((m) => m.name);
  let client: pg.Client;
  try {
    client = await connect(databaseUrl);
  } catch (error) {
    if (errorCode(error) === INVALID_CATALOG_NAME) return all;
    throw error;
  }
  try {
    const { rows } = await client.query<{ found: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS found");
    if (!rows[0]?.found) return all;
    return (await pendingMigrations(client, migrations, opts.log ?? (() => {}))).map((m) => m.name);
  } finally {
    await client.end();
  }
}

async function connectCreatingDatabase(databaseUrl: string, log: (line: string) => void): Promise<pg.Client> {
  try {
    return await connect(databaseUrl);
  } catch (error) {
    if (errorCode(error) !== INVALID_CATALOG_NAME) throw error;
  }
  const name = databaseName(databaseUrl);
  const admin = await connect(withDatabase(databaseUrl, 'postgres'));
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    log(`migrate: created database ${name}`);
  } catch (error) {
    // Another starter created it between our connect and our CREATE: that is what we wanted.
    const code = errorCode(error);
    if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
  } finally {
    await admin.end();
  }
  return connect(databaseUrl);
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'heed-migrate' });
  // A server-ended connection (pg_terminate_backend) can say so between two queries; without a
  // listener that 'error' event ends the process before the next query could fail cleanly.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
  return client;
}

async function lock(client: pg.Client, log: (line: string) => void): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [PRISMA_MIGRATE_LOCK]);
  if (rows[0]?.locked) return;
  log('migrate: another process is migrating this database; waiting for it');
  await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Checks the recorded history against the folder and returns what is left to apply. */
async function pendingMigrations(client: pg.Client, migrations: MigrationFile[], log: (line: string) => void): Promise<MigrationFile[]> {
  const { rows } = await client.query<MigrationRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at',
  );
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.filter((row) => row.finished_at === null).map((row) => row.migration_name);
  if (failed.length > 0) {
    throw new Error(
      `migrate: refusing to run, _prisma_migrations records failed migration(s) ${failed.join(', ')}; ` +
        'repair the database, then mark them with `prisma migrate resolve --rolled-back <name>`',
    );
  }
  const onDisk = new Map(migrations.map((m) => [m.name, m]));
  const applied = new Set<string>();
  const edited: string[] = [];
  for (const row of live) {
    applied.add(row.migration_name);
    const file = onDisk.get(row.migration_name);
    if (!file) log(`migrate: warning, applied migration ${row.migration_name} is not in prisma/migrations`);
    else if (!matchesChecksum(file.sql, row.checksum)) {
      edited.push(`${row.migration_name} (recorded ${row.checksum}, file now ${file.checksum})`);
    }
  }
  if (edited.length > 0) {
    throw new Error(
      `migrate: refusing to run, applied migration(s) were modified after being applied: ${edited.join('; ')}. ` +
        'Restore the original migration.sql and add a new migration for the change.',
    );
  }
  return migrations.filter((m) => !applied.has(m.name));
}

async function apply(client: pg.Client, migration: MigrationFile, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query('INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())', [
      id,
      migration.checksum,
      migration.name,
    ]);
    await client.query(migration.sql);
    await client.query('UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1', [id]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw new Error(`migrate: migration ${migration.name} failed and was rolled back: ${messageOf(error)}`, {
      cause: error,
    });
  }
  log(`migrate: applied ${migration.name} in ${Math.round(performance.now() - started)} ms`);
}

/**
 * Prisma accepts a script whose line endings git converted (LF ⇄ CRLF) as unchanged;
 * we mirror that so a Windows checkout is not refused.
 */
function matchesChecksum(sql: string, checksum: string): boolean {
  return [sql, sql.replace(/\r\n/g, '\n'), sql.replace(/\r?\n/g, '\r\n')].some((v) => sha256(v) === checksum);
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`migrate: database URL names no database: ${new URL(url).origin}`);
  return name;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
