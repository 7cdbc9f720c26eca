import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ChildWorker } from '../support/child-worker.ts';
import { TestHeed } from '../support/harness.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * `npm run worker` lowers its own CPU priority (WORKER_NICE), so an API process on the same
 * machine is served first (chat/schedule/worker-priority.ts), and never raises one it was started at.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

/** A process's nice value (its main thread's), from /proc (Linux). */
async function niceOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

test.skipIf(isEmbeddedTestRun())(
  'a worker process runs at nice 10 by default, at WORKER_NICE when set, and a lower priority it was started at stays',
  async () => {
    const cases: { env: Record<string, string>; startedAt: number | undefined; runsAt: number }[] = [
      { env: {}, startedAt: undefined, runsAt: 10 },
      { env: { WORKER_NICE: '4' }, startedAt: undefined, runsAt: 4 },
      { env: { WORKER_NICE: '4' }, startedAt: 15, runsAt: 15 },
    ];
    for (const c of cases) {
      // at nice 15 beside a busy loop at nice 0 the worker gets ~4 % of a core: its start takes that much longer
      const worker = await ChildWorker.start(heed.childEnv(c.env), { nice: c.startedAt, startWithinMs: c.startedAt ? 120_000 : 30_000 });
      try {
        expect(await niceOf(worker.child.pid!), JSON.stringify(c)).toBe(c.runsAt);
        expect(worker.output.join(''), 'its start line says so').toContain(`"nice":${c.runsAt}`);
      } finally {
        await worker.stop();
      }
    }
  },
  240_000,
);

test.skipIf(isEmbeddedTestRun())('a WORKER_NICE outside 0–19 stops the worker at start-up with the setting named', async () => {
  await expect(ChildWorker.start(heed.childEnv({ WORKER_NICE: '25' }))).rejects.toThrow(/WORKER_NICE/);
});
