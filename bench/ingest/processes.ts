import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { niced } from '../../test/support/niced.ts';
import { sleep } from '../stats.ts';
import { processCpu } from './cpu-by-process.ts';
import type { SendSpans } from './span-hook.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One Heed process of the bench, started as `npm start` / `npm run worker` start theirs (node + tsx,
 * no further flags). Tried for the API and left out (2026-12-01): `--max-semi-space-size=64` (a
 * larger young generation). With 5,000 streams at 10,000 deltas/s it cut the API's GC pauses from
 * 88–89 (1.8–2.4 s) to 21–27 (0.56–0.75 s) and its CPU from 54–67 % to 46–56 % of a core, yet the
 * fan-out p99 stayed 190–1,150 ms (the publisher's side dominates); the debounce path as deployed
 * measured p50 15–19 / p99 34–40 ms with it against 16–17 / 28–31 in the runs interleaved with
 * those, and 15–17 / 32–41 in the day's other runs without it: no gain worth a flag every
 * deployment must copy.
 */
export class BenchProcess {
  private tail = '';
  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    // the whole output in a file for a look afterwards (errors under load); the tail for start-up checks
    const log = createWriteStream(join(tmpdir(), `heed-bench-ingest-${name}.log`));
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      this.tail = (this.tail + chunk.toString()).slice(-4000);
    };
    child.once('exit', () => log.end());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /**
   * `nice`: start it at that CPU priority (test/support/niced.ts): for a stand-in of another
   * company's machines, which production does not run beside Heed.
   */
  static start(
    name: string,
    entry: string,
    env: NodeJS.ProcessEnv,
    args: readonly string[] = [],
    opts: { nice?: number } = {},
  ): BenchProcess {
    // BENCH_CPU_PROF=<dir>: each process writes a V8 CPU profile there when it exits (where does the time go?)
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROF, name)}`] : [];
    const [command, ...rest] = niced([process.execPath, ...profile, '--import', 'tsx', entry, ...args], opts.nice);
    const child = spawn(command!, rest, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    return new BenchProcess(name, child);
  }

  /** Resolves once `ready()` holds; fails when the process exits first or after 90 s. */
  async until(what: string, ready: () => Promise<boolean> | boolean): Promise<void> {
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(50)) {
      if (this.child.exitCode !== null)
        throw new Error(`${this.name} exited before ${what}: ${this.tail.trim().split('\n').slice(-3).join(' | ')}`);
      if (await ready()) return;
    }
    throw new Error(`${this.name}: no ${what} within 90 s`);
  }

  /** Some output so far contains `text` (a start-up line). */
  said(text: string): boolean {
    return this.tail.includes(text);
  }

  /** CPU seconds (user + system) the process has used, from /proc (Linux). */
  async cpuSeconds(): Promise<number> {
    return (await processCpu(this.child.pid!))?.seconds ?? 0;
  }

  /** The process's nice value now (its main thread's), from /proc (Linux); null once it is gone. */
  async nice(): Promise<number | null> {
    return (await processCpu(this.child.pid!))?.nice ?? null;
  }

  /** Clears the API process's span samples (span-hook.ts). */
  resetSpans(): void {
    this.child.send({ type: 'spans:reset' });
  }

  /** The API process's span samples since the last reset (span-hook.ts). */
  readSpans(): Promise<SendSpans[]> {
    return new Promise((resolve) => {
      const onMessage = (m: { type?: string; samples?: SendSpans[] }) => {
        if (m?.type !== 'spans') return;
        this.child.off('message', onMessage);
        resolve(m.samples ?? []);
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'spans:read' });
    });
  }

  /** SIGTERM (a graceful stop), then SIGKILL after 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((done) => this.child.once('exit', done));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
