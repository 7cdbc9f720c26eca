import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '../../api/src/embedded/free-port.ts';
import { waitUntil } from './wait-until.ts';

/**
 * The suite's own redis-server on a spare port of 127.0.0.1, with no persistence
 * (`--save ""`, no AOF): a restart comes back empty, as a failed-over Redis without its
 * data would. Killing it never touches the Redis the tests and other runs share.
 */
export class ChaosRedis {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly binary: string,
    readonly port: number,
  ) {}

  static async start(binary: string): Promise<ChaosRedis> {
    const redis = new ChaosRedis(binary, await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** SIGKILL, then a fresh empty server on the same port after `downMs`. */
  async restart(downMs: number): Promise<void> {
    await this.down();
    await new Promise((r) => setTimeout(r, downMs));
    await this.up();
  }

  async stop(): Promise<void> {
    await this.down();
  }

  private async up(): Promise<void> {
    const child = spawn(
      this.binary,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const errors: string[] = [];
    child.stderr?.on('data', (d) => errors.push(String(d)));
    this.child = child;
    await waitUntil(`redis-server on port ${this.port} (${errors.join('')})`, () => this.answersPing(), 10_000);
  }

  private async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  private answersPing(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect(this.port, '127.0.0.1');
      socket.setTimeout(500);
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (d) => (socket.destroy(), resolve(String(d).startsWith('+PONG'))));
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => (socket.destroy(), resolve(false)));
    });
  }
}
