import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { openStores } from '../../api/src/embedded/stores.ts';

/**
 * Which database and coordination a process uses is never a surprise: a server that is
 * configured must answer (never a quiet switch to the embedded mode), and the one-process
 * embedded mode refuses to start a separate worker, each with one line saying what to do.
 */
const run = promisify(execFile);
const CLOSED = '127.0.0.1:9'; // the discard port: nothing listens there

test('a DATABASE_URL that does not answer stops the start with the reason, and never falls back to the embedded database', async () => {
  const err = await openStores(
    { DATABASE_URL: `postgresql://heed:s3cret-pass@${CLOSED}/heed`, REDIS_URL: '', HEED_DATA_DIR: '/nonexistent' },
    { role: 'api' },
  ).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(/^DATABASE_URL is set, but PostgreSQL at 127\.0\.0\.1:9\/heed does not answer \(ECONNREFUSED\)/);
  expect((err as Error).message).not.toContain('s3cret-pass');
});

test('a REDIS_URL that does not answer stops the start with the reason', async () => {
  const err = await openStores(
    { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres', REDIS_URL: `redis://${CLOSED}`, HEED_DATA_DIR: '/nonexistent' },
    { role: 'api' },
  ).catch((e: Error) => e);
  expect((err as Error).message).toMatch(/^REDIS_URL is set, but Redis at 127\.0\.0\.1:9 does not answer/);
});

test('npm run worker without DATABASE_URL and REDIS_URL refuses in one line: the embedded mode is one process', async () => {
  const result = await run('npx', ['tsx', 'api/src/worker-main.ts'], { env: { PATH: process.env.PATH, HOME: process.env.HOME } }).catch(
    (e: { code: number; stderr: string; stdout: string }) => e,
  );
  expect(result).toMatchObject({ code: 1 });
  const lines = `${(result as { stderr: string }).stderr}${(result as { stdout: string }).stdout}`.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('npm run worker needs DATABASE_URL and REDIS_URL');
});
