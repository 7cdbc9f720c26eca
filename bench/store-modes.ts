import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reserveTestDatabase } from '../test/support/database.ts';
import { makeClient, unwrapEvent } from '../test/support/harness.ts';
import { preciseNow, sleep, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';
import { freePort } from '../api/src/embedded/free-port.ts';
import { UNLIMITED_RATE_LIMITS } from '../test/support/unlimited-limits.ts';

/** One way of running Heed, started as `npm start` starts it (a separate `tsx api/src/main.ts` process). */
interface ModeFigures {
  mode: string;
  /** spawn → first `/healthz` 200 (tsx start, migrations, demo seed included) */
  startMs: number;
  /** one send → the first reply token on the visitor's event stream (debounce included) */
  firstTokenMs: number;
  sendsPerSecond: number;
  sendLatency: Summary;
}

export interface StoreModesResult {
  debounceMs: number;
  visitors: number;
  modes: ModeFigures[];
}

const DEBOUNCE_MS = 100;
const VISITORS = 16;
const SEND_WINDOW_MS = 4_000;

/**
 * The store modes' figures: the embedded mode (a new data folder, then a restart on it) beside the
 * servers (PostgreSQL + Redis on 127.0.0.1), each a real `npm start` process with the local
 * demo model: time to `/healthz`, time from a send to its first reply token, and sends/s of
 * `VISITORS` closed-loop visitors for a few seconds.
 */
export async function measureStoreModes(): Promise<StoreModesResult> {
  const dir = await mkdtemp(join(tmpdir(), 'heed-bench-embedded-'));
  // as root, the embedded PostgreSQL runs as the postgres user, which must reach its folder
  await chmod(dir, 0o755);
  const server = reserveTestDatabase();
  try {
    const modes: ModeFigures[] = [];
    modes.push(await measureMode('embedded, new folder', { HEED_DATA_DIR: dir }));
    modes.push(await measureMode('embedded, restart', { HEED_DATA_DIR: dir }));
    modes.push(
      await measureMode('PostgreSQL + Redis servers', {
        DATABASE_URL: server.url,
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        REDIS_PREFIX: `heed-bench-${randomUUID().slice(0, 8)}:`,
      }),
    );
    return { debounceMs: DEBOUNCE_MS, visitors: VISITORS, modes };
  } finally {
    await server.drop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

async function measureMode(mode: string, env: Record<string, string>): Promise<ModeFigures> {
  const port = await freePort();
  const t0 = preciseNow();
  // node with tsx's loader, in its own process group: stopping it stops its embedded PostgreSQL too
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DEMO_PORT: String(await freePort()),
      DEMO_SITE_KEY: 'bench',
      DEBOUNCE_MS: String(DEBOUNCE_MS),
      LOG_LEVEL: 'warn',
      PENDING_MAX_MESSAGES: '10000',
      PENDING_MAX_CHARS: '10000000',
      RATE_LIMITS: UNLIMITED_RATE_LIMITS,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  try {
    const url = `http://127.0.0.1:${port}`;
    await untilHealthy(url, child, () => stderr);
    const startMs = preciseNow() - t0;
    const firstTokenMs = await timeToFirstToken(url);
    const { sendsPerSecond, latencies } = await sustainedSends(url);
    return { mode, startMs, firstTokenMs, sendsPerSecond, sendLatency: summarize(latencies) };
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

async function untilHealthy(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(25)) {
    if (child.exitCode !== null) throw new Error(`npm start exited: ${stderr().trim().split('\n').at(-1)}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
  }
  throw new Error('no /healthz within 90 s');
}

async function visitor(url: string) {
  const anon = makeClient(url, null);
  const session = await anon.session.start.mutate({ siteKey: 'bench' });
  const api = makeClient(url, session.visitorToken);
  const { id } = await api.conversation.create.mutate();
  return { api, conversationId: id };
}

async function timeToFirstToken(url: string): Promise<number> {
  const { api, conversationId } = await visitor(url);
  let sentAt = 0;
  const first = new Promise<number>((resolve, reject) => {
    const sub = api.events.subscribe.subscribe(
      { lastEventId: null },
      {
        onData: (raw) => {
          const e = unwrapEvent(raw);
          if (e.type === 'reply.delta' && sentAt) {
            resolve(preciseNow() - sentAt);
            sub.unsubscribe();
          }
        },
        onError: reject,
      },
    );
  });
  await sleep(300); // the stream is open
  sentAt = preciseNow();
  await api.message.send.mutate({ conversationId, content: 'How long is delivery to Oslo?', clientMessageId: randomUUID() });
  return first;
}

async function sustainedSends(url: string): Promise<{ sendsPerSecond: number; latencies: number[] }> {
  const visitors = await Promise.all(Array.from({ length: VISITORS }, () => visitor(url)));
  const latencies: number[] = [];
  const end = preciseNow() + SEND_WINDOW_MS;
  await Promise.all(
    visitors.map(async ({ api, conversationId }) => {
      while (preciseNow() < end) {
        const t = preciseNow();
        await api.message.send.mutate({ conversationId, content: 'one more thing', clientMessageId: randomUUID() });
        latencies.push(preciseNow() - t);
      }
    }),
  );
  return { sendsPerSecond: latencies.length / (SEND_WINDOW_MS / 1000), latencies };
}

export function formatStoreModes(r: StoreModesResult): string {
  return formatSection(
    '6. Embedded mode beside servers (each a separate `npm start` process)',
    [
      `start: spawn → first /healthz 200 (tsx, migrations and demo seed included); first token: a send → the first reply token on the visitor's stream (DEBOUNCE_MS=${r.debounceMs}, local demo model)`,
      `sends: ${r.visitors} closed-loop visitors for ${SEND_WINDOW_MS / 1000} s over HTTP, API and worker in that one process`,
    ],
    formatTable(
      ['mode', 'start ms', 'first token ms', 'sends/s', 'send p50 ms', 'send p99 ms'],
      r.modes.map((m) => [m.mode, m.startMs, m.firstTokenMs, m.sendsPerSecond, m.sendLatency.p50, m.sendLatency.p99]),
    ),
  );
}
