import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { loadConfig } from '../../api/src/config.ts';
import { reserveTestDatabase } from '../support/database.ts';

/** Production fails closed: each unsafe setting is refused with one clear line at start-up. */
const strong = () => randomBytes(32).toString('hex');

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return (err as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
};

test('production refuses the development secret, a weak secret and weak operator or cron tokens, one line each', () => {
  expect(problems({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^HEED_SECRET: set a strong HEED_SECRET/)]);
  const weak = problems({
    NODE_ENV: 'production',
    HEED_SECRET: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ADMIN_TOKEN: 'changeme-changeme-changeme-123456',
    CRON_SECRET: 'short-but-16-chars',
    METRICS_TOKEN: 'metrics-token-for-prometheus-0001',
  });
  expect(weak.map((l) => l.split(':')[0])).toEqual(['HEED_SECRET', 'ADMIN_TOKEN', 'CRON_SECRET', 'METRICS_TOKEN']);
  expect(
    problems({ NODE_ENV: 'production', HEED_SECRET: strong(), ADMIN_TOKEN: strong(), CRON_SECRET: strong(), METRICS_TOKEN: strong() }),
  ).toEqual([]);
  // shorter than 16 characters is refused everywhere
  expect(problems({ NODE_ENV: 'development', METRICS_TOKEN: 'too-short' })).toEqual([
    expect.stringMatching(/^METRICS_TOKEN: use at least 16/),
  ]);
  // development keeps its conveniences
  expect(problems({ NODE_ENV: 'development', ADMIN_TOKEN: 'changeme-changeme' })).toEqual([]);
});

test('production seeds no demo site unless DEMO_SITE_KEY names one; development seeds `demo`', () => {
  expect(loadConfig({ NODE_ENV: 'production', HEED_SECRET: strong() }).DEMO_SITE_KEY).toBe('');
  expect(loadConfig({ NODE_ENV: 'production', HEED_SECRET: strong(), DEMO_SITE_KEY: 'showroom' }).DEMO_SITE_KEY).toBe('showroom');
  expect(loadConfig({ NODE_ENV: 'development' }).DEMO_SITE_KEY).toBe('demo');
});

test('a production process with no model configured refuses to start instead of answering with the demo model', async () => {
  const database = reserveTestDatabase();
  try {
    const run = promisify(execFile)('npx', ['tsx', 'api/src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        HEED_SECRET: strong(),
        DATABASE_URL: database.url,
        PORT: '0',
      },
      timeout: 60_000,
    });
    const failure = (await run.then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    ))!;
    expect(failure.code).toBe(1);
    expect(
      failure.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('[heed]')),
    ).toEqual([
      '[heed] cannot start: No model configured in production: set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider), or HEED_DEMO_MODEL=1 to answer with the demo model on purpose.',
    ]);
  } finally {
    await database.drop();
  }
});
