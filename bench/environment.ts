import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import { createClient } from 'redis';

/** Where the figures were taken; printed first and stored with them. */
export interface Environment {
  node: string;
  platform: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  /** 1-minute load average when the bench started: above the core count, other work competes for the CPU */
  loadAverageAtStart: number;
  postgres: string;
  redis: string;
  commit: string;
}

/**
 * Describes the machine and the stores. Never throws: a piece that cannot be read is "unknown",
 * since the description is context, not a measurement.
 */
export async function describeEnvironment(): Promise<Environment> {
  const [postgres, redis] = await Promise.all([postgresVersion(), redisVersion()]);
  return {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
    postgres,
    redis,
    commit: gitCommit(),
  };
}

async function postgresVersion(): Promise<string> {
  const url = process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432';
  const client = new pg.Client({ connectionString: `${url.replace(/\/$/, '')}/postgres`, application_name: 'heed-bench' });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisVersion(): Promise<string> {
  const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    if (client.isOpen) await client.quit().catch(() => undefined);
  }
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return dirty.trim() === '' ? head : `${head}+uncommitted`;
  } catch {
    return 'unknown';
  }
}
