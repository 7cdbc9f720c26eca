import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitUntil } from './wait-until.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Role = 'api' | 'worker';

/**
 * One Heed process of the run (`api/src/main.ts` or `api/src/worker-main.ts`, exactly as
 * `npm start` / `npm run worker` start them), restartable: a kill ends this incarnation and
 * `start()` brings up the next one with the same name, port and environment. Output goes to
 * `<logDir>/<name>.log`, every incarnation appended.
 */
export class AppProcess {
  private child: ChildProcess | null = null;
  private tail = '';
  private log: WriteStream;
  /** how many times it was started */
  incarnations = 0;
  /** exits nobody asked for (a crash), with the last output before each */
  readonly crashes: string[] = [];
  private expectingExit = false;
  private starting = false;
  /** start-ups that ended before the process served, with the reason (a refusal or a crash) */
  readonly bootFailures: string[] = [];
  stopped = false;

  constructor(
    readonly name: string,
    readonly role: Role,
    private readonly env: NodeJS.ProcessEnv,
    logDir: string,
    /** the API's port (unused for workers) */
    readonly port = 0,
  ) {
    this.log = createWriteStream(`${logDir}/${name}.log`, { flags: 'a' });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Running and not frozen: it can serve (an API) or claim (a worker). */
  get up(): boolean {
    return this.child !== null && this.child.exitCode === null && !this.stopped;
  }

  /**
   * Starts the next incarnation and resolves once it serves (`/healthz`) or reports its worker
   * started. A process that exits while starting (it refuses to start while Redis or PostgreSQL
   * does not answer, as production processes do) is started again, as an orchestrator would, up
   * to four times; each such exit is kept in `bootFailures`.
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        this.bootFailures.push(reason.slice(0, 400));
        if (attempt >= 4) throw err;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async startOnce(): Promise<void> {
    const entry = this.role === 'api' ? 'api/src/main.ts' : 'api/src/worker-main.ts';
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.stopped = false;
    this.expectingExit = false;
    this.starting = true;
    this.incarnations++;
    this.tail = '';
    this.log.write(`\n===== ${this.name} incarnation ${this.incarnations} pid ${child.pid} at ${new Date().toISOString()} =====\n`);
    const record = (d: Buffer) => {
      this.log.write(d);
      this.tail = (this.tail + String(d)).slice(-4000);
    };
    child.stdout?.on('data', record);
    child.stderr?.on('data', record);
    child.once('exit', (code, signal) => {
      this.log.write(`\n===== ${this.name} exited code=${code} signal=${signal} =====\n`);
      if (!this.expectingExit && !this.starting)
        this.crashes.push(`${this.name} exited by itself (code ${code}, signal ${signal}): …${this.tail.slice(-600)}`);
    });
    try {
      await waitUntil(
        `${this.name} to start`,
        async () => {
          if (child.exitCode !== null) throw new Error(`${this.name} exited while starting: ${firstProblem(this.tail)}`);
          if (this.role === 'worker') return /worker (\S+ )?started/.test(this.tail);
          const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(1000) }).catch(() => null);
          return res?.ok === true;
        },
        60_000,
      );
    } catch (err) {
      // An orchestrator kills an instance that never turned ready before it starts another: left
      // alive, it held the port and its next incarnation died of EADDRINUSE (a busy machine, 08:47 UTC).
      if (child.exitCode === null && child.signalCode === null) {
        this.expectingExit = true;
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
      throw err;
    } finally {
      this.starting = false;
    }
  }

  /** SIGKILL: no cleanup, no release, like a machine that died. Resolves once it is gone. */
  async kill(): Promise<void> {
    await this.signalAndWait('SIGKILL');
  }

  /** SIGTERM: the graceful path (stop accepting, release runs, exit). */
  async terminate(): Promise<void> {
    await this.signalAndWait('SIGTERM');
  }

  /** SIGSTOP: frozen in place, sockets open, leases running out. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
    this.stopped = true;
  }

  /** SIGCONT: wakes up with whatever its sockets buffered meanwhile. */
  thaw(): void {
    this.child?.kill('SIGCONT');
    this.stopped = false;
  }

  async close(): Promise<void> {
    if (this.stopped) this.thaw();
    await this.signalAndWait('SIGKILL');
    await new Promise((r) => this.log.end(r));
  }

  private async signalAndWait(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    const exited = new Promise((r) => child.once('exit', r));
    if (this.stopped && signal !== 'SIGKILL') this.thaw();
    child.kill(signal);
    // a SIGTERM that hangs (it should not: shutdown is bounded at 25 s) ends in a SIGKILL
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    this.stopped = false;
  }
}

/** The line that says why a process stopped: its "cannot start" refusal, or the error it died of. */
function firstProblem(output: string): string {
  const refusal = /cannot start:[\s\S]*/.exec(output);
  if (refusal) return refusal[0].replace(/\s+/g, ' ').slice(0, 240);
  const error = /^(\w*Error|error): .*$/m.exec(output);
  return error ? error[0] : output.slice(-300);
}
