import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { waitUntil } from '../../../test/support/harness.ts';
import { startEmbeddedPostgres } from './embedded-postgres.ts';
import { processAlive } from './process-alive.ts';

/**
 * The embedded database is this process's child: nobody else starts it again when it stops on its
 * own (kill -9, a crash, the OOM killer), so Heed does, where the pool finds it, and says so.
 */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heed-embedded-'));
  // as root the server runs as the postgres user, which must reach the folder
  await chmod(dir, 0o755);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The running server's pid, as it records it in its data folder. */
async function serverPid(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

/** The answer to a query on a fresh pooled connection, or null while the server does not answer. */
async function answers(pool: pg.Pool): Promise<string | null> {
  return pool.query<{ answer: string }>("SELECT 'here' AS answer").then(
    (r) => r.rows[0]!.answer,
    () => null,
  );
}

test('an embedded PostgreSQL killed while Heed runs is started again at the same address, says so, and a stop leaves no server behind', async () => {
  const warnings: string[] = [];
  const lines: string[] = [];
  const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'data'), log: (l) => lines.push(l), warn: (l) => warnings.push(l) });
  const pool = new pg.Pool({ connectionString: embedded.url, max: 2, connectionTimeoutMillis: 1_000 });
  pool.on('error', () => {}); // idle connections die with the server: expected here
  try {
    expect(await answers(pool)).toBe('here');
    const killed = await serverPid(embedded.dataDir);
    process.kill(killed, 'SIGKILL');
    await waitUntil('the server killed', () => !processAlive(killed));

    // the same URL answers again: the pool (Heed's, unchanged) needs nothing but new connections
    expect(await waitUntil('the database answering again', () => answers(pool), 20_000)).toBe('here');
    const restarted = await serverPid(embedded.dataDir);
    expect(restarted).not.toBe(killed);
    expect(warnings[0]).toBe('the embedded PostgreSQL stopped on its own (SIGKILL); starting it again');
    // said once its own probe connected, which may come a moment after the pool's
    await waitUntil('the restart reported', () => lines.includes('the embedded PostgreSQL is running again'));

    await pool.end();
    await embedded.stop();
    expect(processAlive(restarted)).toBe(false);
  } finally {
    await pool.end().catch(() => {});
    await embedded.stop();
  }
});

test('a server stopped by its owner is not started again', async () => {
  const warnings: string[] = [];
  const embedded = await startEmbeddedPostgres({ dataDir: join(dir, 'owned'), warn: (l) => warnings.push(l) });
  const pid = await serverPid(embedded.dataDir);
  await embedded.stop();
  expect(processAlive(pid)).toBe(false);
  // longer than the first wait before a restart
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await expect(readFile(join(embedded.dataDir, 'postmaster.pid'), 'utf8')).rejects.toThrow();
  expect(warnings).toEqual([]);
});
