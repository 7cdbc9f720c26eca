import { createClient } from 'redis';
import { TestHeed, type HeedOptions } from '../test/support/harness.ts';

/**
 * The debounce every bench stack runs with: short, so a run of 40 sends stays around ten seconds,
 * yet long enough that the worker really sleeps until the batch is due (the path we measure).
 */
export const DEBOUNCE_MS = 200;

/** The settings of a stack that shape the figures, printed next to them. */
export interface StackSettings {
  DEBOUNCE_MS: number;
  MAX_WAIT_MS: number;
  WORKER_POLL_MS: number;
  WORKER_CONCURRENCY: number;
  LEASE_MS: number;
  workers: number;
}

const live = new Set<TestHeed>();

/**
 * Runs `work` against a fresh whole stack (own database, Redis prefix, model server, HTTP server,
 * one in-process worker) and always tears it down, database and Redis keys included.
 * @example const figures = await withStack((heed) => measureSomething(heed));
 */
export async function withStack<T>(work: (heed: TestHeed) => Promise<T>, opts: HeedOptions = {}): Promise<T> {
  const heed = await TestHeed.start({
    ...opts,
    env: {
      DEBOUNCE_MS: String(DEBOUNCE_MS),
      // closed-loop visitors send faster than replies come: measure throughput, not the safety caps
      PENDING_MAX_MESSAGES: '10000',
      PENDING_MAX_CHARS: '10000000',
      ...opts.env,
    },
  });
  live.add(heed);
  try {
    return await work(heed);
  } finally {
    live.delete(heed);
    await teardown(heed);
  }
}

/** Tears down every stack still running (Ctrl-C, watchdog): their databases must not linger. */
export async function stopAllStacks(): Promise<void> {
  const stacks = [...live];
  live.clear();
  await Promise.allSettled(stacks.map(teardown));
}

async function teardown(heed: TestHeed): Promise<void> {
  await heed.stop();
  await deleteKeys(heed.config.REDIS_URL, heed.config.REDIS_PREFIX);
}

/**
 * The harness leaves its Redis keys to expire (reply text lives ten minutes); the bench makes
 * hundreds of runs, so it removes its own prefix once the stack is down and nothing writes.
 */
async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (batch.length > 0) await client.del(batch);
    }
  } finally {
    await client.quit();
  }
}

export function settingsOf(heed: TestHeed): StackSettings {
  const c = heed.config;
  return {
    DEBOUNCE_MS: c.DEBOUNCE_MS,
    MAX_WAIT_MS: c.MAX_WAIT_MS,
    WORKER_POLL_MS: c.WORKER_POLL_MS,
    WORKER_CONCURRENCY: c.WORKER_CONCURRENCY,
    LEASE_MS: c.LEASE_MS,
    workers: heed.workers.length,
  };
}

/** One line for a section's notes, e.g. `DEBOUNCE_MS=200 MAX_WAIT_MS=3000 …`. */
export function describeSettings(s: StackSettings): string {
  return Object.entries(s)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

/** What the stack's services logged (run failures, lost leases): worth a look when not empty. */
export function serviceLogNote(heed: TestHeed): string[] {
  if (heed.logs.length === 0) return [];
  const first = heed.logs[0]!.split('\n')[0]!.slice(0, 160);
  return [`services logged ${heed.logs.length} line(s), first: ${first}`];
}
