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

export const TEMPLATE_DATABASE = 'heed_test_template';
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
  await ensureTestTemplate();
  const database = reserveTestDatabase();
  const name = databaseNameOf(database.url);
  await withAdmin((admin) =>
    retryWhileInUse(() =>
      admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(TEMPLATE_DATABASE)}`),
    ),
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

let templateReady: Promise<void> | undefined;

/**
 * Makes `heed_test_template` match `prisma/migrations`, once per process; across processes
 * (global setup and every vitest worker) the work happens once, since the template carries a
 * fingerprint of the migrations it was built from as its database comment, readable from the
 * `postgres` database without connecting to the template (which would block cloning it).
 */
export function ensureTestTemplate(): Promise<void> {
  templateReady ??= buildTemplateIfStale().catch((error: unknown) => {
    templateReady = undefined;
    throw error;
  });
  return templateReady;
}

async function buildTemplateIfStale(): Promise<void> {
  const wanted = await migrationsFingerprint();
  await withAdmin(async (admin) => {
    if ((await templateFingerprint(admin)) === wanted) return;
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_DATABASE]);
    try {
      if ((await templateFingerprint(admin)) === wanted) return; // built by another worker meanwhile
      // Rebuilt rather than migrated in place: an edited, not yet shared migration would
      // otherwise be refused by its checksum and wedge every test run until dropped by hand.
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(TEMPLATE_DATABASE)} WITH (FORCE)`);
      await migrate(databaseUrl(TEMPLATE_DATABASE)); // closes its connection, so the template can be cloned
      await admin.query(
        `COMMENT ON DATABASE ${pg.escapeIdentifier(TEMPLATE_DATABASE)} IS ${pg.escapeLiteral(wanted)}`,
      );
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_DATABASE]);
    }
  });
}

/**
 * Drops `heed_test_%` databases created before `runStartedAt` by a process that no longer runs
 * (a crashed or interrupted test run), and any whose name is not in our format. A concurrent
 * run's databases are left alone, as is any database someone is still connected to. The pid
 * check assumes the test processes run on the machine doing the cleanup.
 */
export async function dropLeftoverTestDatabases(runStartedAt: Date): Promise<string[]> {
  return withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'heed\\_test\\_%' AND datname <> $1`,
      [TEMPLATE_DATABASE],
    );
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


async function migrationsFingerprint(): Promise<string> {
  const lines = (await listMigrations()).map((m) => `${m.name} ${m.checksum}\n`);
  return `heed-migrations:${createHash('sha256').update(lines.join('')).digest('hex')}`;
}

async function templateFingerprint(admin: pg.Client): Promise<string | null> {
  const { rows } = await admin.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [TEMPLATE_DATABASE],
  );
  return rows[0]?.comment ?? null;
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
