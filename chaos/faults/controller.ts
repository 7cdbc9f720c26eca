import { type Random, sleep } from '../random.ts';
import type { AppProcess } from '../stack/fleet.ts';
import type { ChaosDatabase } from '../stack/postgres.ts';
import type { ChaosRedis } from '../stack/redis-server.ts';

import { FAULT_KINDS, type FaultKind } from './kinds.ts';

export { FAULT_KINDS, type FaultKind };

/** One fault as it was injected. */
export interface Fault {
  kind: FaultKind;
  target: string;
  at: number;
  /** e.g. how long a process stayed down or frozen, how many backends were ended */
  detail: string;
}

/** How likely each kind is after the first round (which has one of each, in random order). */
const WEIGHTS: Record<FaultKind, number> = {
  'worker-kill': 3,
  'worker-sigterm': 1,
  'worker-sigstop': 2,
  'api-kill': 2,
  'redis-restart': 1,
  'pg-terminate': 2,
};

export interface Targets {
  apis: AppProcess[];
  workers: AppProcess[];
  redis: ChaosRedis;
  database: ChaosDatabase;
}

/**
 * Injects faults at random until stopped, each on its own (they overlap): `kill -9` of a worker
 * or an API process (restarted after 0.3–1.5 s), a worker's SIGTERM (a deploy: it releases its
 * runs, then is restarted), SIGSTOP of a worker for its lease plus 0.5–2 s then SIGCONT, a Redis
 * restart (empty: no persistence), and `pg_terminate_backend` of every app connection. At most
 * two workers and one API process are out at a time, so the run keeps making progress.
 */
export class FaultController {
  readonly faults: Fault[] = [];
  /** faults that could not run (e.g. a restart that failed), with the reason */
  readonly errors: string[] = [];
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly targets: Targets,
    private readonly opts: { random: Random; meanGapMs: number; leaseMs: number; kinds: readonly FaultKind[] },
  ) {}

  counts(): Record<FaultKind, number> {
    const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
    for (const f of this.faults) counts[f.kind]++;
    return counts;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops injecting and waits until every process is back (restarted, thawed). */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.allSettled(this.inFlight);
  }

  private async run(): Promise<void> {
    const { random } = this.opts;
    const firstRound = random.shuffle(this.opts.kinds);
    while (this.running) {
      await sleep(random.exponential(this.opts.meanGapMs));
      if (!this.running) break;
      const kind = firstRound.shift() ?? this.weightedKind();
      const job = this.inject(kind).catch(
        (err: unknown) => void this.errors.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`),
      );
      this.inFlight.add(job);
      void job.finally(() => this.inFlight.delete(job));
    }
  }

  private weightedKind(): FaultKind {
    const { kinds } = this.opts;
    const total = kinds.reduce((sum, k) => sum + WEIGHTS[k], 0);
    let x = this.opts.random.next() * total;
    for (const kind of kinds) if ((x -= WEIGHTS[kind]) < 0) return kind;
    return kinds[0]!;
  }

  private async inject(kind: FaultKind): Promise<void> {
    const { random } = this.opts;
    const { apis, workers, redis, database } = this.targets;
    switch (kind) {
      case 'worker-kill':
      case 'worker-sigterm':
      case 'worker-sigstop': {
        if (workers.filter((w) => this.busy.has(w.name)).length >= 2) return;
        const worker = this.pickFree(workers);
        if (!worker) return;
        return this.hold(worker.name, async () => {
          if (kind === 'worker-sigstop') {
            const frozenMs = this.opts.leaseMs + random.int(500, 2000);
            this.record(kind, worker.name, `frozen ${frozenMs} ms`);
            worker.freeze();
            await sleep(frozenMs);
            worker.thaw();
            return;
          }
          const downMs = random.int(300, 1500);
          this.record(kind, worker.name, `down ${downMs} ms + start-up`);
          await (kind === 'worker-kill' ? worker.kill() : worker.terminate());
          await sleep(downMs);
          await worker.start();
        });
      }
      case 'api-kill': {
        if (apis.some((a) => this.busy.has(a.name))) return;
        const api = this.pickFree(apis);
        if (!api) return;
        return this.hold(api.name, async () => {
          const downMs = random.int(300, 1500);
          this.record(kind, api.name, `down ${downMs} ms + start-up`);
          await api.kill();
          await sleep(downMs);
          await api.start();
        });
      }
      case 'redis-restart': {
        if (this.busy.has('redis')) return;
        return this.hold('redis', async () => {
          const downMs = random.int(300, 1500);
          this.record(kind, 'redis', `down ${downMs} ms, back empty`);
          await redis.restart(downMs);
        });
      }
      case 'pg-terminate': {
        const fault = this.record(kind, 'postgresql', '');
        fault.detail = `${await database.terminateBackends()} backends ended`;
        return;
      }
    }
  }

  private pickFree(processes: AppProcess[]): AppProcess | null {
    const free = processes.filter((p) => p.up && !this.busy.has(p.name));
    return free.length > 0 ? this.opts.random.pick(free) : null;
  }

  private async hold(name: string, work: () => Promise<void>): Promise<void> {
    this.busy.add(name);
    try {
      await work();
    } finally {
      this.busy.delete(name);
    }
  }

  private record(kind: FaultKind, target: string, detail: string): Fault {
    const fault = { kind, target, at: Date.now(), detail };
    this.faults.push(fault);
    return fault;
  }
}
