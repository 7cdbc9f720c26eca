import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import { createClient } from 'redis';
import { cpuProbeMs } from './cpu-probe.ts';
import { summarize } from './stats.ts';

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
  /**
   * median of 1,000 `SELECT 1` on one connection, in ms: what one round trip to PostgreSQL costs
   * here. Machines of the same label have differed by 6× in inserts/s between sessions
   * (2026-12-01/02), and Heed is made of such round trips: this tells the machines apart.
   */
  postgresRoundTripMs: number | null;
  redis: string;
  commit: string;
  /** bench/cpu-probe.ts at the start, the fastest of three, in ms */
  cpuProbeMs: number;
}

/**
 * Describes the machine and the stores. Never throws: a piece that cannot be read is "unknown",
 * since the description is context, not a measurement.
 */
export async function describeEnvironment(): Promise<Environment> {
  const [{ version: postgres, roundTripMs: postgresRoundTripMs }, redis] = await Promise.all([postgresFacts(), redisVersion()]);
  return {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: Math.round(loadavg()[0]! * 100) / 100,
    postgres,
    postgresRoundTripMs,
    redis,
    commit: gitCommit(),
    cpuProbeMs: Math.min(cpuProbeMs(), cpuProbeMs(), cpuProbeMs()),
  };
}

async function postgresFacts(): Promise<{ version: string; roundTripMs: number | null }> {
  const url = process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432';
  const client = new pg.Client({ connectionString: `${url.replace(/\/$/, '')}/postgres`, application_name: 'heed-bench' });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    const trips: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      const t0 = performance.now();
      await client.query('SELECT 1');
      trips.push(performance.now() - t0);
    }
    return { version: rows[0]?.server_version ?? 'unknown', roundTripMs: Math.round(summarize(trips).p50 * 1000) / 1000 };
  } catch {
    return { version: 'unknown', roundTripMs: null };
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
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return dirty.trim() === '' ? head : `${head}+uncommitted`;
  } catch {
    return 'unknown';
  }
}
