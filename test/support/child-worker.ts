import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { niced } from './niced.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A reply worker in its own process, exactly as `npm run worker` starts it. */
export class ChildWorker {
  readonly output: string[] = [];
  private exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (d) => this.output.push(String(d)));
    child.stderr?.on('data', (d) => this.output.push(String(d)));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /**
   * Starts `api/src/worker-main.ts` and resolves once it reports it is running. `nice`: started at
   * that CPU priority (niced.ts), as an operator may. `startWithinMs` bounds the wait (20 s): a
   * worker started at a low priority beside a CPU-heavy job gets a few percent of a core to start with.
   */
  static async start(env: NodeJS.ProcessEnv, opts: { nice?: number; startWithinMs?: number } = {}): Promise<ChildWorker> {
    const [command, ...args] = niced([process.execPath, '--import', 'tsx', 'api/src/worker-main.ts'], opts.nice);
    const child = spawn(command!, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const worker = new ChildWorker(child);
    const deadline = Date.now() + (opts.startWithinMs ?? 20_000);
    while (!worker.output.join('').includes('worker ') || !worker.output.join('').includes('started')) {
      if (child.exitCode !== null) throw new Error(`worker exited: ${worker.output.join('')}`);
      if (Date.now() > deadline) throw new Error(`worker did not start: ${worker.output.join('')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return worker;
  }

  /** SIGKILL: no cleanup, no lock release, exactly like a crashed machine. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the graceful path. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }
}
