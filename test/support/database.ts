import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { listMigrations, migrate } from '../../api/src/db/migrate.ts';
import { processAlive } from '../../api/src/embedded/process-alive.ts';

/**
 * A real PostgreSQL database per test (file), cloned from a migrated template.
 *
 * Cloning (`CREATE DATABASE … TEMPLATE`, 90–290 ms here depending on disk load, all fsync) costs
 * the same however many migrations there are; a fresh database costs that same CREATE plus every
 * migration (+35–50 ms for the initial one alone). PostgreSQL 15's default WAL_LOG strategy beat
 * FILE_COPY (~285 vs ~310 ms, interleaved runs), so the default stays.
 * Names carry their creation time and creator pid, `heed_test_<ms36>_<pid36>_<hex>`, so the global
 * setup can tell a crashed run's leftovers from a concurrent run's live databases.
 */

/** Templates are named by the migrations they hold, so checkouts of different branches can test side by side. */
const TEMPLATE_PREFIX = 'heed_template_';
/** A stale template (other migrations) no run has rebuilt for this long is dropped by the global setup. */
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;
const PREFIX = 'heed_test_';
/** The server test databases live on: read when used, since the global setup may start an embedded one first. */
export const testDatabaseServerUrl = () => process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432';
/** SQLSTATE of "source database … is being accessed by other users" (and other in-use objects). */
const OBJECT_IN_USE = '55006';

export interface TestDatabase {
  /** connection string of the new database */
  url: string;
  /** drops the database, closing any connection still open to it */
  drop(): Promise<void>;
}

/**
 * Creates a fresh, fully migrated database for one test or test file.
 *
 * @example
 * let database: TestDatabase;
 * beforeAll(async () => { database = await createTestDatabase(); });
 * afterAll(() => database.drop());
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTestTemplate();
  const database = reserveTestDatabase();
  const name = databaseNameOf(database.url);
  await withAdmin((admin) =>
    retryWhileInUse(() => admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`)),
  );
  return database;
}

/**
 * A unique database name that does not exist yet, for tests that create the database themselves
 * (e.g. through `migrate`). `drop()` removes it if it was created.
 */
export function reserveTestDatabase(): TestDatabase {
  const name = `${PREFIX}${Date.now().toString(36)}_${process.pid.toString(36)}_${randomBytes(4).toString('hex')}`;
  return {
    url: databaseUrl(name),
    drop: () =>
      withAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      }),
  };
}

let templateReady: Promise<string> | undefined;

/**
 * Makes sure a migrated template for this checkout's `prisma/migrations` exists, once per process,
 * and returns its name. Across processes (global setup and every vitest worker) the work happens
 * once: the name carries a fingerprint of the migrations, and the database comment says the build
 * finished (readable from the `postgres` database without connecting to the template, which would
 * block cloning it).
 */
export function ensureTestTemplate(): Promise<string> {
  templateReady ??= buildTemplateIfMissing().catch((error: unknown) => {
    templateReady = undefined;
    throw error;
  });
  return templateReady;
}

async function buildTemplateIfMissing(): Promise<string> {
  const fingerprint = await migrationsFingerprint();
  const name = `${TEMPLATE_PREFIX}${fingerprint.slice(0, 16)}`;
  await withAdmin(async (admin) => {
    if (await templateBuilt(admin, name, fingerprint)) return;
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await templateBuilt(admin, name, fingerprint)) return; // built by another worker meanwhile
      // A build that was interrupted leaves a database without its comment: start over.
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      await migrate(databaseUrl(name)); // closes its connection, so the template can be cloned
      await admin.query(`COMMENT ON DATABASE ${pg.escapeIdentifier(name)} IS ${pg.escapeLiteral(builtComment(fingerprint))}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

/**
 * Drops `heed_test_%` databases created before `runStartedAt` by a process that no longer runs
 * (a crashed or interrupted test run), and any whose name is not in our format. A concurrent
 * run's databases are left alone, as is any database someone is still connected to. The pid
 * check assumes the test processes run on the machine doing the cleanup.
 */
export async function dropLeftoverTestDatabases(runStartedAt: Date): Promise<string[]> {
  return withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'heed\\_test\\_%'`);
    const dropped: string[] = [];
    for (const { datname } of rows) {
      const origin = parseName(datname);
      if (origin && (origin.createdAt >= runStartedAt.getTime() || processAlive(origin.pid))) continue;
      try {
        await admin.query(`DROP DATABASE ${pg.escapeIdentifier(datname)}`);
        dropped.push(datname);
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
      }
    }
    return dropped;
  });
}

/** `heed_test_<ms36>_<pid36>_<hex>` → its creation time and creator; null for other names. */
function parseName(name: string): { createdAt: number; pid: number } | null {
  const match = /^heed_test_([0-9a-z]+)_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
  if (!match) return null;
  return { createdAt: parseInt(match[1]!, 36), pid: parseInt(match[2]!, 36) };
}

/**
 * Drops templates built from other migrations (another branch, an older checkout) that no run
 * has built for a day and nobody is connected to; the current one stays.
 */
export async function dropStaleTestTemplates(): Promise<string[]> {
  const current = await ensureTestTemplate();
  return withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string; comment: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS comment FROM pg_database
        WHERE datname LIKE 'heed\\_template\\_%'`,
    );
    const dropped: string[] = [];
    for (const { datname, comment } of rows) {
      if (datname === current || Date.now() - builtAt(comment) < STALE_TEMPLATE_MS) continue;
      try {
        await admin.query(`DROP DATABASE ${pg.escapeIdentifier(datname)}`);
        dropped.push(datname);
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
      }
    }
    return dropped;
  });
}

/** Hex digest of every migration's name and checksum, in order. */
async function migrationsFingerprint(): Promise<string> {
  const lines = (await listMigrations()).map((m) => `${m.name} ${m.checksum}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** The template's comment once its build finished: `heed-migrations:<fingerprint> built <ms>`. */
const builtComment = (fingerprint: string) => `heed-migrations:${fingerprint} built ${Date.now()}`;

/** When a template's build finished (0 when unknown: an old or interrupted one). */
const builtAt = (comment: string | null) => Number(/ built (\d+)$/.exec(comment ?? '')?.[1] ?? 0);

async function templateBuilt(admin: pg.Client, name: string, fingerprint: string): Promise<boolean> {
  const { rows } = await admin.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [name],
  );
  return rows[0]?.comment?.startsWith(`heed-migrations:${fingerprint} built `) ?? false;
}

/**
 * Cloning fails while anyone is connected to the template; that only happens for the moment a
 * worker checks or rebuilds it, so retry briefly (25 ms, doubling to 400 ms, ~10 s in all).
 */
async function retryWhileInUse<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: databaseUrl('postgres'), application_name: 'heed-test-support' });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(testDatabaseServerUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
