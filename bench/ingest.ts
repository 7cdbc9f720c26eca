import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { freePort } from '../api/src/embedded/free-port.ts';
import { reserveTestDatabase } from '../test/support/database.ts';
import { measureInsertAnchor, type AnchorResult } from './ingest/anchor.ts';
import { cpuBetween, cpuByCommand } from './ingest/cpu-by-process.ts';
import { busyPercent, machineJiffies } from './fanout/machine-cpu.ts';
import { measureDirectSends, type DirectSendsResult } from './ingest/direct-sends.ts';
import { openLoop, type OpenLoopResult } from './ingest/open-loop.ts';
import { BenchProcess } from './ingest/processes.ts';
import { BENCH_ORIGIN as ORIGIN, BENCH_SITE_KEY, benchProcessEnv, deleteKeys } from './ingest/process-env.ts';
import type { SendSpans } from './ingest/span-hook.ts';
import { closeSockets, mutate } from './ingest/wire.ts';
import { preciseNow, rounded, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';

const VISITORS = 64;
const WARMUP_MS = 2_000;
const WINDOW_MS = 15_000;
/** sends profiled one at a time (after as many unprofiled ones), so each request's spans are its own */
const PROFILED_SENDS = 200;
const ANCHOR_MS = 5_000;
const DIRECT_MS = 5_000;
/** the target: this many sends/s sustained, with p99 ≤ 100 ms */
const TARGET_RATE = 1_000;
const OPEN_WARMUP_MS = 2_000;
const OPEN_WINDOW_MS = 15_000;
/** the tail target at TARGET_RATE */
const TARGET_P99_MS = 100;
/** the local model server's CPU priority (see measureIngest) */
const MODEL_NICE = 19;

export interface IngestResult {
  visitors: number;
  windowMs: number;
  accepted: number;
  rejected: number;
  firstError: string | null;
  sendsPerSecond: number;
  sendLatencyMs: Summary;
  /** the API process's CPU during the window, in % of one core */
  apiCpuPercent: number;
  apiCpuMsPerSend: number;
  workerCpuPercent: number;
  /** PostgreSQL's and Redis's server processes, and this bench process (the 64 clients), in % of one core */
  postgresCpuPercent: number;
  redisCpuPercent: number;
  clientCpuPercent: number;
  /** the local model server (its own process; in production the provider's machines) */
  modelCpuPercent: number;
  /** what Heed's own processes (API, worker, PostgreSQL, Redis) spend per send: the deployment's cost */
  heedCpuMsPerSend: number;
  /** every process above together, clients and model included, per send: this machine's CPU budget of one send */
  machineCpuMsPerSend: number;
  /** every core of the machine, busy share in the window (100 = all busy): the processes above should add up to about this */
  machineBusyPercent: number;
  /** 1-minute load average before the processes started and at the end of the window */
  load: { before: number; after: number };
  /** medians over PROFILED_SENDS sends made one at a time */
  oneSend: { clientMs: number } & Omit<SendSpans, 'statements'>;
  statements: string[];
  /** `sendMessage` called in-process, no HTTP in front (direct-sends.ts) */
  direct: DirectSendsResult;
  anchor: AnchorResult;
  /** the same visitors sending at TARGET_RATE on a schedule (open-loop.ts), before the closed loop */
  atTargetRate: OpenLoopResult;
  /**
   * atTargetRate's baseline: the same schedule once more after the closed loop, with the worker
   * stopped, so no reply is written: what the API and PostgreSQL hold at that rate on their own,
   * and so how much of atTargetRate's tail the replies written meanwhile add
   */
  withoutReplies: OpenLoopResult;
  /** the CPU priority the worker process ran at (it lowers itself to WORKER_NICE) */
  workerNice: number | null;
}

/**
 * The ingest figure: sends/s into ONE API process (bench/ingest/api-process.ts: main.ts
 * without its worker) with the reply worker in another (`npm run worker`), on the real
 * PostgreSQL and Redis, from VISITORS scripted visitors, each with its own session token and
 * conversation, sending over HTTP exactly as the widget does: first at TARGET_RATE on a schedule
 * (open-loop.ts: the latency at that rate), then in a closed loop (the capacity). Then where one
 * send's time goes (span-hook.ts) and, beside it, the physical anchor (anchor.ts).
 */
export async function measureIngest(): Promise<IngestResult> {
  const database = reserveTestDatabase();
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `heed-bench-ingest-${randomUUID().slice(0, 8)}:`;
  const port = await freePort();
  const modelPort = await freePort();
  // The model is another company's machines in production: here its own process, so its CPU is
  // counted apart from Heed's (in the worker's process it had been a share of the worker's CPU),
  // at the lowest priority, so that its bursts (up to 41 % of a core while a wave of replies
  // streams) take as little of Heed's CPU as the machine allows: send p99 at 1,000/s measured
  // 140–149 ms with it at nice 0 and the worker at 10 (2 runs), 82–125 with it lowered too (6 runs).
  const model = BenchProcess.start(
    'model',
    'api/src/model-server/main.ts',
    { PATH: process.env.PATH, HOME: process.env.HOME },
    ['--port', String(modelPort)],
    { nice: MODEL_NICE },
  );
  // closed-loop visitors send faster than replies come: measure throughput, not the pending cap
  const env = benchProcessEnv(
    { databaseUrl: database.url, redisUrl, prefix, port },
    {
      PENDING_MAX_MESSAGES: '100000',
      PENDING_MAX_CHARS: '100000000',
      OPENAI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
      OPENAI_MODEL: 'heed-local',
    },
  );
  const loadBefore = loadavg()[0]!;
  const url = `http://127.0.0.1:${port}`;
  await model
    .until('the model server', () => model.said(`http://127.0.0.1:${modelPort}/v1`))
    .catch(async (err: unknown) => {
      await Promise.allSettled([model.stop(), database.drop()]);
      throw err;
    });
  const api = BenchProcess.start('API', 'bench/ingest/api-process.ts', { ...env, INGEST_SPANS: '1' });
  let worker: BenchProcess | null = null;
  try {
    // its own line first: on a shared machine another process may answer on a port freePort() gave us
    await api.until(
      '/healthz',
      async () =>
        api.said('ingest API listening') &&
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )),
    );
    worker = BenchProcess.start('worker', 'api/src/worker-main.ts', env);
    await worker.until('its start', () => worker!.said('worker started'));
    const workerNice = await worker.nice();

    const visitors = await startVisitors(url);
    const oneSend = await profileSends(api, url, visitors);

    const send = (v: Visitor, i: number) =>
      mutate(
        url,
        'message.send',
        { conversationId: v.conversationId, clientMessageId: randomUUID(), content: `one more thing ${i}` },
        v.token,
        ORIGIN,
      );
    // latency at the target rate first, on a machine not yet saturated by the closed loop's backlog
    const atTargetRate = await openLoop(visitors, send, { ratePerSecond: TARGET_RATE, warmupMs: OPEN_WARMUP_MS, windowMs: OPEN_WINDOW_MS });
    let measuring = false;
    let rejected = 0;
    let firstError: string | null = null;
    const latencies: number[] = [];
    const warmEnd = preciseNow() + WARMUP_MS;
    const end = warmEnd + WINDOW_MS;
    let cpu = {
      api: 0,
      worker: 0,
      model: 0,
      at: 0,
      client: process.cpuUsage(),
      servers: new Map<string, number>(),
      machine: { busy: 0, total: 0 },
    };
    const startWindow = setTimeout(async () => {
      measuring = true;
      cpu = {
        api: await api.cpuSeconds(),
        worker: await worker!.cpuSeconds(),
        model: await model.cpuSeconds(),
        at: preciseNow(),
        client: process.cpuUsage(),
        servers: await cpuByCommand(),
        machine: await machineJiffies(),
      };
    }, WARMUP_MS);
    await Promise.all(
      visitors.map(async (v) => {
        for (let i = 0; preciseNow() < end; i++) {
          const t0 = preciseNow();
          try {
            await send(v, i);
            if (measuring) latencies.push(preciseNow() - t0);
          } catch (err) {
            if (measuring) rejected++;
            firstError ??= err instanceof Error ? err.message : String(err);
          }
        }
      }),
    );
    clearTimeout(startWindow);
    const seconds = (preciseNow() - cpu.at) / 1000;
    const apiCpu = (await api.cpuSeconds()) - cpu.api;
    const workerCpu = (await worker.cpuSeconds()) - cpu.worker;
    const modelCpu = (await model.cpuSeconds()) - cpu.model;
    const clientUsage = process.cpuUsage(cpu.client);
    const clientCpu = (clientUsage.user + clientUsage.system) / 1e6;
    const servers = cpuBetween(cpu.servers, await cpuByCommand());
    const machineBusy = busyPercent(cpu.machine, await machineJiffies());
    const postgresCpu = servers.get('postgres') ?? 0;
    const redisCpu = servers.get('redis-server') ?? 0;
    const loadAfter = loadavg()[0]!;
    const sendsPerSecond = latencies.length / seconds;
    /** CPU seconds in the window as % of one core, and as ms per accepted send */
    const percent = (cpuSeconds: number) => Math.round((cpuSeconds / seconds) * 1000) / 10;
    const msPerSend = (cpuSeconds: number) => Math.round(((cpuSeconds * 1000) / latencies.length) * 100) / 100;

    // the baseline of atTargetRate's tail: the same schedule with no reply written meanwhile, from
    // new visitors (each conversation empty at the start, as at atTargetRate's), whose messages
    // pile up unanswered: each send's pending-cap count reads more rows than with replies
    await worker.stop();
    const withoutReplies = await openLoop(await startVisitors(url), send, {
      ratePerSecond: TARGET_RATE,
      warmupMs: OPEN_WARMUP_MS,
      windowMs: OPEN_WINDOW_MS,
    });
    await api.stop();
    const direct = await measureDirectSends(env, visitors, { concurrency: VISITORS, durationMs: DIRECT_MS });
    const anchor = await measureInsertAnchor(database.url, visitors, { connections: VISITORS, durationMs: ANCHOR_MS });
    return {
      visitors: VISITORS,
      windowMs: WINDOW_MS,
      accepted: latencies.length,
      rejected,
      firstError,
      sendsPerSecond: Math.round(sendsPerSecond * 10) / 10,
      sendLatencyMs: rounded(summarize(latencies)),
      apiCpuPercent: percent(apiCpu),
      apiCpuMsPerSend: msPerSend(apiCpu),
      workerCpuPercent: percent(workerCpu),
      postgresCpuPercent: percent(postgresCpu),
      redisCpuPercent: percent(redisCpu),
      clientCpuPercent: percent(clientCpu),
      modelCpuPercent: percent(modelCpu),
      heedCpuMsPerSend: msPerSend(apiCpu + workerCpu + postgresCpu + redisCpu),
      machineCpuMsPerSend: msPerSend(apiCpu + workerCpu + postgresCpu + redisCpu + clientCpu + modelCpu),
      machineBusyPercent: Math.round(machineBusy * 10) / 10,
      load: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadAfter * 100) / 100 },
      ...oneSend,
      direct,
      anchor,
      atTargetRate,
      withoutReplies,
      workerNice,
    };
  } finally {
    closeSockets();
    await Promise.allSettled([api.stop(), worker?.stop(), model.stop()]);
    await database.drop().catch(() => undefined);
    await deleteKeys(redisUrl, prefix).catch(() => undefined);
  }
}

interface Visitor {
  token: string;
  visitorId: string;
  conversationId: string;
}

/** VISITORS visitors with a conversation each, eight at a time: 64 sessions at once would measure the pool's queue, not the sends. */
async function startVisitors(url: string): Promise<Visitor[]> {
  const visitors: Visitor[] = [];
  while (visitors.length < VISITORS) visitors.push(...(await Promise.all(Array.from({ length: 8 }, () => startVisitor(url)))));
  return visitors;
}

async function startVisitor(url: string): Promise<Visitor> {
  const session = await mutate<{ visitorToken: string; visitorId: string }>(
    url,
    'session.start',
    { siteKey: BENCH_SITE_KEY },
    null,
    ORIGIN,
  );
  const conversation = await mutate<{ id: string }>(url, 'conversation.create', undefined, session.visitorToken, ORIGIN);
  return { token: session.visitorToken, visitorId: session.visitorId, conversationId: conversation.id };
}

/** Sends one at a time (a warm-up round first), and takes the median of each span. */
async function profileSends(api: BenchProcess, url: string, visitors: Visitor[]): Promise<Pick<IngestResult, 'oneSend' | 'statements'>> {
  const clientMs: number[] = [];
  for (const profiled of [false, true]) {
    api.resetSpans();
    for (let i = 0; i < PROFILED_SENDS; i++) {
      const v = visitors[i % visitors.length]!;
      const t0 = preciseNow();
      await mutate(
        url,
        'message.send',
        { conversationId: v.conversationId, clientMessageId: randomUUID(), content: `profiled ${i}` },
        v.token,
        ORIGIN,
      );
      if (profiled) clientMs.push(preciseNow() - t0);
    }
  }
  const samples = await api.readSpans();
  const median = (pick: (s: SendSpans) => number) => Math.round(summarize(samples.map(pick)).p50 * 100) / 100;
  return {
    oneSend: {
      clientMs: Math.round(summarize(clientMs).p50 * 100) / 100,
      totalMs: median((s) => s.totalMs),
      pgTrips: median((s) => s.pgTrips),
      pgMs: median((s) => s.pgMs),
      txTrips: median((s) => s.txTrips),
      txPgMs: median((s) => s.txPgMs),
      txMs: median((s) => s.txMs),
      redisCommands: median((s) => s.redisCommands),
      redisMs: median((s) => s.redisMs),
    },
    statements: samples.at(-1)?.statements ?? [],
  };
}

/** The section as printed. */
export function formatIngest(r: IngestResult): string {
  const o = r.oneSend;
  const orm = o.txMs - o.txPgMs;
  const rest = o.totalMs - o.pgMs - o.redisMs - orm;
  const load = formatTable(
    ['', 'value', 'unit'],
    [
      [
        `at ${r.atTargetRate.offeredPerSecond} sends/s offered: answered`,
        r.atTargetRate.answeredPerSecond,
        `sends/s (${r.atTargetRate.accepted} sends, ${r.atTargetRate.rejected} refused or failed, at most ${r.atTargetRate.maxInFlight} in flight)`,
      ],
      [
        '  send latency p50 / p99',
        `${r.atTargetRate.latencyMs.p50} / ${r.atTargetRate.latencyMs.p99}`,
        `ms from each send's scheduled time (max ${r.atTargetRate.latencyMs.max})`,
      ],
      ['  p99 by half second: median / worst', slicesLine(r.atTargetRate.sliceP99Ms), overTargetLine(r.atTargetRate)],
      [
        '  the same, worker stopped: p50 / p99',
        `${r.withoutReplies.latencyMs.p50} / ${r.withoutReplies.latencyMs.p99}`,
        `ms (max ${r.withoutReplies.latencyMs.max}; no reply written meanwhile: the tail the API and PostgreSQL give on their own)`,
      ],
      ['    p99 by half second: median / worst', slicesLine(r.withoutReplies.sliceP99Ms), overTargetLine(r.withoutReplies)],
      ['closed loop: sends accepted', String(r.accepted), `sends (${r.rejected} refused or failed)`],
      ['  throughput (capacity)', r.sendsPerSecond, 'sends/s'],
      [
        '  send latency p50 / p99',
        `${r.sendLatencyMs.p50} / ${r.sendLatencyMs.p99}`,
        `ms (max ${r.sendLatencyMs.max}; ${r.visitors} in flight always: ${r.visitors} / throughput is the mean)`,
      ],
      ['API process CPU', r.apiCpuPercent, '% of one core'],
      ['API CPU per send', r.apiCpuMsPerSend, 'ms'],
      ['worker process CPU', r.workerCpuPercent, '% of one core'],
      ['PostgreSQL CPU (all its processes)', r.postgresCpuPercent, '% of one core'],
      ['Redis CPU', r.redisCpuPercent, '% of one core'],
      ['bench clients CPU (this process)', r.clientCpuPercent, '% of one core'],
      ['model server CPU (its own process)', r.modelCpuPercent, '% of one core'],
      [
        "Heed's CPU per send (API, worker, PostgreSQL, Redis)",
        r.heedCpuMsPerSend,
        `ms: at most ${Math.round((cpus().length * 1000) / r.heedCpuMsPerSend)} sends/s on ${cpus().length} cores given to Heed alone`,
      ],
      [
        'machine CPU per send (all of the above)',
        r.machineCpuMsPerSend,
        `ms: at most ${Math.round((cpus().length * 1000) / r.machineCpuMsPerSend)} sends/s on ${cpus().length} cores`,
      ],
      [
        'machine busy, all cores',
        r.machineBusyPercent,
        `% (the processes above: ${Math.round(((r.machineCpuMsPerSend * r.sendsPerSecond) / 1000 / cpus().length) * 100)} % of the ${cpus().length} cores)`,
      ],
      [
        'sendMessage in-process, no HTTP',
        r.direct.sendsPerSecond,
        `sends/s (${r.direct.failed} failed; p50 ${r.direct.latencyMs.p50} ms, p99 ${r.direct.latencyMs.p99} ms, ${r.direct.cpuPercent} % of a core, ${r.direct.cpuMsPerSend} ms CPU per send)`,
      ],
      [
        'anchor: indexed single-row inserts',
        r.anchor.insertsPerSecond,
        `inserts/s (${r.anchor.connections} connections, p50 ${r.anchor.latencyMs.p50} ms, p99 ${r.anchor.latencyMs.p99} ms)`,
      ],
    ],
  );
  const breakdown = formatTable(
    ['one send, alone (medians)', 'ms', ''],
    [
      ['client: request → answer', o.clientMs, 'loopback HTTP included'],
      ['API: request → response finished', o.totalMs, ''],
      ['  PostgreSQL round trips', o.pgMs, `${o.pgTrips} trips (${o.txTrips} in the transaction, ${o.txPgMs.toFixed(1)} ms)`],
      ['  send code and driver inside the transaction', orm, `transaction ${o.txMs.toFixed(1)} ms minus its round trips`],
      ['  Redis (limits, wake-ups)', o.redisMs, `${o.redisCommands} commands`],
      ['  HTTP, tRPC, auth, zod, ORM outside the tx', rest, 'the remainder'],
    ],
  );
  return formatSection(
    `8. Ingest (one API process, the worker in another, ${r.visitors} visitors: ${OPEN_WINDOW_MS / 1000} s at ${TARGET_RATE} sends/s, ${r.windowMs / 1000} s closed loop, ${OPEN_WINDOW_MS / 1000} s at ${TARGET_RATE} sends/s with the worker stopped)`,
    [
      `open loop: each send leaves on schedule whatever the answers' pace, latency counted from its scheduled time; closed loop: each visitor sends again as soon as answered, which measures capacity (at saturation its latency is queueing by construction)`,
      `load average ${r.load.before} before, ${r.load.after} at the end of the window; PostgreSQL and Redis on 127.0.0.1; spans timed by bench/ingest/span-hook.ts`,
      `CPU priorities: the API at nice 0; the worker at nice ${r.workerNice} (it lowers itself to WORKER_NICE, as every \`npm run worker\` does); the model server, production's provider, at nice ${MODEL_NICE}`,
      "PostgreSQL and Redis CPU is their processes' whole use in the window (on a shared machine, others' work too); the ceiling divides the cores by the machine CPU of one send",
      ...(Math.max(r.load.before, r.load.after) > cpus().length
        ? [`the load average was above the ${cpus().length} cores: other work shared the machine, so these figures understate it`]
        : []),
      ...(r.firstError ? [`first refusal or error: ${r.firstError}`] : []),
      `a send's statements: ${r.statements.join(' ; ')}`,
    ],
    `${load}\n\n${breakdown}`,
  );
}

/** The median and the worst of the open loop's half-second p99s. */
function slicesLine(p99s: readonly number[]): string {
  const { p50, max } = summarize(p99s);
  return `${p50} / ${max}`;
}

const overTargetLine = (o: OpenLoopResult) =>
  `ms; ${o.sliceP99Ms.filter((p99) => p99 > TARGET_P99_MS).length} of ${o.sliceP99Ms.length} half seconds above ${TARGET_P99_MS} ms`;
