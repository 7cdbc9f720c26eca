import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { listMigrations } from '../../api/src/db/migrate.ts';
import { reserveTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * Production migrates as a release step: a process finding pending migrations refuses to start
 * (unless HEED_AUTO_MIGRATE=1), and `npm run db:migrate` applies them.
 */

const STEP_MS = 60_000;
const run = promisify(execFile);
const started: ChildProcess[] = [];
const databases: TestDatabase[] = [];

afterEach(async () => {
  // npx starts tsx, which starts node: end the whole process group.
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  await Promise.all(databases.splice(0).map((database) => database.drop()));
});

function freshDatabase(): TestDatabase {
  const database = reserveTestDatabase();
  databases.push(database);
  return database;
}

/** A production environment that passes every other start-up check. */
function productionEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HEED_SECRET: randomBytes(32).toString('hex'),
    OPENAI_API_KEY: 'x',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    PORT: '0',
    DEMO_SITE_KEY: '',
    REDIS_PREFIX: `heed-test:${randomBytes(4).toString('hex')}:`,
    DATABASE_URL: databaseUrl,
    ...extra,
  };
}

/** Starts the API and resolves with its output once a line matches `ready`; rejects if it exits first. */
function startUntil(env: NodeJS.ProcessEnv, ready: RegExp): Promise<string> {
  const child = spawn('npx', ['tsx', 'api/src/main.ts'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${ready} within ${STEP_MS} ms:\n${output}`)), STEP_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      resolve(output);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${ready}:\n${output}`));
    });
  });
}

async function databaseExists(url: string): Promise<boolean> {
  const server = new URL(url);
  const name = decodeURIComponent(server.pathname.slice(1));
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

test(
  'a production process with pending migrations exits 1 with one line naming them, and migrates nothing',
  async () => {
    const names = (await listMigrations()).map((m) => m.name);
    const database = freshDatabase();

    const failure = await run('npx', ['tsx', 'api/src/main.ts'], { env: productionEnv(database.url), timeout: STEP_MS }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );

    expect(failure?.code).toBe(1);
    expect(
      failure?.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('[heed]')),
    ).toEqual([
      `[heed] cannot start: ${names.length} migrations are pending (${names.join(', ')}): run npm run db:migrate, or set HEED_AUTO_MIGRATE=1`,
    ]);
    expect(await databaseExists(database.url)).toBe(false);
  },
  STEP_MS + 10_000,
);

test(
  'with HEED_AUTO_MIGRATE=1 a production process applies the pending migrations at start-up',
  async () => {
    const last = (await listMigrations()).at(-1)!.name;
    const database = freshDatabase();

    const output = await startUntil(productionEnv(database.url, { HEED_AUTO_MIGRATE: '1' }), new RegExp(`migrate: applied ${last} `));

    expect(output).not.toMatch(/cannot start/);
  },
  STEP_MS + 10_000,
);

test(
  'after `npm run db:migrate` a production process starts without migrating',
  async () => {
    const database = freshDatabase();

    const migrated = await run('npm', ['run', '--silent', 'db:migrate'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url },
      timeout: STEP_MS,
    });
    const output = await startUntil(productionEnv(database.url), /API listening on /);

    expect(migrated.stdout).toMatch(/migrate: applied /);
    expect(output).not.toMatch(/migrate: applied|cannot start/);
  },
  2 * STEP_MS + 10_000,
);
