import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { freePort } from '../api/src/embedded/free-port.ts';
import { reserveTestDatabase } from '../test/support/database.ts';
import { keys as keysFor } from '../api/src/redis/client.ts';
import { ask } from './fanout/ipc.ts';
import { busyPercent, machineJiffies } from './fanout/machine-cpu.ts';
import { startRedisProbe } from './fanout/redis-probe.ts';
import { closeStreams, openStream, type StreamTally } from './fanout/streams.ts';
import { inPool, startVisitors, streamTicket } from './fanout/visitors.ts';
import { cpuBetween, cpuByCommand } from './ingest/cpu-by-process.ts';
import { BenchProcess } from './ingest/processes.ts';
import { BENCH_ORIGIN as ORIGIN, BENCH_SITE_KEY, benchProcessEnv, deleteKeys } from './ingest/process-env.ts';
import { closeSockets } from './ingest/wire.ts';
import { preciseNow, rounded, sleep, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';

const SUBSCRIBERS = Number(process.env.FANOUT_SUBSCRIBERS ?? 5_000);
const DELTAS_PER_SECOND = Number(process.env.FANOUT_RATE ?? 10_000);
const WARMUP_MS = 3_000;
const WINDOW_MS = 15_000;
/** after the last publish: deltas still in flight get this long to arrive before the rest count as lost */
const DRAIN_MS = 3_000;
/** streams opened at once (tickets fetched just before), as a crowd of page loads would */
const CONNECT_CONCURRENCY = 100;
/** streams held open with nothing to relay, CPU measured; longer than SSE_CATCHUP_MS so every quiet stream checks the log once */
const IDLE_MS = 6_000;
/** visitor channels the Redis probe listens on beside the API (a sample: it shares the client's process) */
const PROBED_CHANNELS = 250;

/** The instruments bench/fanout/api-process.ts reads (bench/README.md, "Instruments"), passed on when set. */
const INSTRUMENTS = ['FANOUT_PROFILE', 'FANOUT_TRACE_GC'] as const;
const instrumentsSet = (): Record<string, string> =>
  Object.fromEntries(INSTRUMENTS.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));

/** The API's garbage-collection pauses in the window (bench/fanout/api-process.ts). */
interface GcPauses {
  count: number;
  totalMs: number;
  maxMs: number;
  maxKind: string;
}

interface Memory {
  rss: number;
  heapUsed: number;
}

export interface FanoutResult {
  subscribers: number;
  deltasPerSecond: number;
  windowMs: number;
  setupSeconds: number;
  /** of which: claiming one run per conversation (the worker's claimBatch, 16 at a time) */
  claimSeconds: number;
  /** streams whose `connected` event arrived, and how long opening all of them took (tickets included) */
  connected: number;
  connectSeconds: number;
  /** API CPU per stream opened (ticket call included), and with every stream open and quiet */
  connectCpuMsPerStream: number;
  idleCpuPercent: number;
  /** deltas the publisher relayed (warm-up and window); received as deltas; not received as a delta by DRAIN_MS after the last publish (late, or lost: a gap snapshot may have carried their text) */
  published: number;
  delivered: number;
  snapshots: number;
  lost: number;
  misordered: number;
  streamsClosed: number;
  /** the publisher fell behind its schedule by at most this much (it shares the cores) */
  publisherBehindMs: number;
  /** relay calls that failed (Redis did not answer within node-redis's 5 s command timeout), and the first error */
  relayFailures: number;
  firstRelayError: string | null;
  /** publish (worker's ReplyRelay) → the bench client parsed the `data:` line, window only */
  latencyMs: Summary;
  /** the same deltas, publish → a plain Redis subscriber in the bench client (no API), on PROBED_CHANNELS channels */
  redisLatencyMs: Summary;
  /** the API's own hop: a probed delta's arrival at the Redis probe → the streams' client parsed it (same process, same clock) */
  apiHopMs: Summary;
  /** the bench client's own event-loop delay in the window (its lateness is in both latencies) */
  clientLoopDelayMs: { p99: number; max: number };
  /** every core of the machine, busy share in the window (100 = all busy), and PostgreSQL's and Redis's share of one core */
  machineBusyPercent: number;
  postgresCpuPercent: number;
  redisCpuPercent: number;
  apiCpuPercent: number;
  /** API CPU in the window per delta of the window delivered: what one process can carry per core */
  apiCpuMsPerDelta: number;
  publisherCpuPercent: number;
  clientCpuPercent: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number; gc: GcPauses };
  memory: { before: Memory; after: Memory; afterWindow: Memory; rssPerStreamKiB: number; heapPerStreamKiB: number };
  load: { before: number; after: number };
}

/**
 * The fan-out figure: SUBSCRIBERS event streams, each a distinct visitor with its own
 * session and stream ticket, held open on ONE API process (bench/fanout/api-process.ts), while a
 * publisher process relays DELTAS_PER_SECOND reply deltas in total over their runs exactly as
 * the reply worker does (bench/fanout/publisher.ts). Measures connection set-up, loss, delivery
 * latency (publish → parsed by the client), the API's CPU, event-loop delay and memory per stream.
 */
export async function measureFanout(): Promise<FanoutResult> {
  const database = reserveTestDatabase();
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `heed-bench-fanout-${randomUUID().slice(0, 8)}:`;
  const port = await freePort();
  const env = benchProcessEnv({ databaseUrl: database.url, redisUrl, prefix, port }, instrumentsSet());
  const loadBefore = loadavg()[0]!;
  const url = `http://127.0.0.1:${port}`;
  const api = BenchProcess.start('fanout-API', 'bench/fanout/api-process.ts', env);
  const publisher = BenchProcess.start('fanout-publisher', 'bench/fanout/publisher.ts', env);
  const streams: { tally: StreamTally; close: () => void }[] = [];
  let closeProbe = async () => {};
  try {
    const publisherReady = ask(publisher.child, null, 'ready');
    await api.until(
      '/healthz',
      async () =>
        api.said('ingest API listening') &&
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )),
    );
    await publisherReady;

    const t0 = preciseNow();
    const visitors = await startVisitors(url, SUBSCRIBERS, { siteKey: BENCH_SITE_KEY, origin: ORIGIN, concurrency: 32 });
    const t1 = preciseNow();
    const { runs } = await ask<{ runs: number }>(
      publisher.child,
      { type: 'claim', conversationIds: visitors.map((v) => v.conversationId) },
      'claimed',
    );
    if (runs !== visitors.length) throw new Error(`only ${runs} of ${visitors.length} runs claimed`);
    const setupSeconds = (preciseNow() - t0) / 1000;
    const claimSeconds = (preciseNow() - t1) / 1000;

    await sleep(1_000);
    const before = await memoryOf(api);
    const samples: { at: number; ms: number }[] = [];
    /** when the streams' client parsed each delta, by stamp: matched with the Redis probe's arrivals */
    const parsedAt = new Map<string, number>();
    const onDelta = (ms: number, stamp: string) => {
      const now = preciseNow();
      samples.push({ at: now - ms, ms });
      parsedAt.set(stamp, now);
    };
    const c0 = preciseNow();
    const cpuBeforeConnect = await api.cpuSeconds();
    const failures: string[] = [];
    await inPool(visitors.length, CONNECT_CONCURRENCY, async (i) => {
      try {
        streams.push(await openStream(url, await streamTicket(url, visitors[i]!, ORIGIN), ORIGIN, onDelta));
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
      }
    });
    const connectSeconds = (preciseNow() - c0) / 1000;
    const connectCpu = (await api.cpuSeconds()) - cpuBeforeConnect;
    if (streams.length === 0) throw new Error(`no stream connected: ${failures[0]}`);
    // the streams open and quiet: what holding them costs (pings, slot heartbeats, quiet-stream checks)
    const idle0 = { cpu: await api.cpuSeconds(), at: preciseNow() };
    await sleep(IDLE_MS);
    const idleCpuPercent = (((await api.cpuSeconds()) - idle0.cpu) / ((preciseNow() - idle0.at) / 1000)) * 100;
    const after = await memoryOf(api);
    if (process.env.FANOUT_PROFILE && process.env.FANOUT_HEAP_SNAPSHOT) await ask(api.child, { type: 'heap:snapshot' }, 'heap:written');

    const keys = keysFor(prefix);
    const probeSamples: { at: number; ms: number; stamp: string; arrived: number }[] = [];
    closeProbe = await startRedisProbe(
      redisUrl,
      visitors.slice(0, PROBED_CHANNELS).map((v) => keys.visitorChannel(v.visitorId)),
      (ms, stamp) => {
        const now = preciseNow();
        probeSamples.push({ at: now - ms, ms, stamp, arrived: now });
      },
    );
    const clientDelay = monitorEventLoopDelay({ resolution: 1 });
    const publishing = ask<{ perRun: number[]; published: number; failed: number; firstError: string | null; behindMs: number }>(
      publisher.child,
      { type: 'publish', perSecond: DELTAS_PER_SECOND, durationMs: WARMUP_MS + WINDOW_MS },
      'published',
    );
    await sleep(WARMUP_MS);
    const windowStart = preciseNow();
    api.child.send({ type: 'delay:reset' });
    api.child.send({ type: 'profile:start' });
    clientDelay.enable();
    const cpu0 = {
      api: await api.cpuSeconds(),
      publisher: await publisher.cpuSeconds(),
      client: process.cpuUsage(),
      machine: await machineJiffies(),
      servers: await cpuByCommand(),
    };
    const published = await publishing;
    const seconds = (preciseNow() - windowStart) / 1000;
    const cpu1 = {
      api: await api.cpuSeconds(),
      publisher: await publisher.cpuSeconds(),
      client: process.cpuUsage(cpu0.client),
      machine: await machineJiffies(),
      servers: await cpuByCommand(),
    };
    clientDelay.disable();
    const servers = cpuBetween(cpu0.servers, cpu1.servers);
    api.child.send({ type: 'profile:stop' });
    const eventLoopDelayMs = await ask<{ p50: number; p99: number; max: number; gc: GcPauses }>(api.child, { type: 'delay:read' }, 'delay');
    const loadAfter = loadavg()[0]!;
    await sleep(DRAIN_MS);
    const afterWindow = await memoryOf(api);

    const delivered = streams.reduce((n, s) => n + s.tally.deltas, 0);
    // published in the window and delivered by the end of the drain
    const windowSamples = samples.filter((s) => s.at >= windowStart).map((s) => s.ms);
    const snapshots = streams.reduce((n, s) => n + s.tally.snapshots, 0);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    return {
      subscribers: visitors.length,
      deltasPerSecond: DELTAS_PER_SECOND,
      windowMs: WINDOW_MS,
      setupSeconds: round1(setupSeconds),
      claimSeconds: round1(claimSeconds),
      connected: streams.length,
      connectSeconds: round1(connectSeconds),
      connectCpuMsPerStream: Math.round((connectCpu * 1000 * 100) / streams.length) / 100,
      idleCpuPercent: round1(idleCpuPercent),
      published: published.published,
      delivered,
      snapshots,
      lost: published.published - delivered,
      misordered: streams.reduce((n, s) => n + s.tally.misordered, 0),
      streamsClosed: streams.filter((s) => s.tally.closed !== null).length,
      publisherBehindMs: published.behindMs,
      relayFailures: published.failed,
      firstRelayError: published.firstError,
      latencyMs: rounded(summarize(windowSamples)),
      redisLatencyMs: rounded(summarize(probeSamples.filter((s) => s.at >= windowStart).map((s) => s.ms))),
      apiHopMs: rounded(
        summarize(
          apiHops(
            probeSamples.filter((s) => s.at >= windowStart),
            parsedAt,
          ),
        ),
      ),
      clientLoopDelayMs: { p99: Math.round(clientDelay.percentile(99) / 1e4) / 100, max: Math.round(clientDelay.max / 1e4) / 100 },
      machineBusyPercent: round1(busyPercent(cpu0.machine, cpu1.machine)),
      postgresCpuPercent: round1(((servers.get('postgres') ?? 0) / seconds) * 100),
      redisCpuPercent: round1(((servers.get('redis-server') ?? 0) / seconds) * 100),
      apiCpuPercent: round1(((cpu1.api - cpu0.api) / seconds) * 100),
      apiCpuMsPerDelta: Math.round(((cpu1.api - cpu0.api) * 1000 * 1000) / Math.max(1, windowSamples.length)) / 1000,
      publisherCpuPercent: round1(((cpu1.publisher - cpu0.publisher) / seconds) * 100),
      clientCpuPercent: round1(((cpu1.client.user + cpu1.client.system) / 1e6 / seconds) * 100),
      eventLoopDelayMs,
      memory: {
        before,
        after,
        afterWindow,
        rssPerStreamKiB: round1((after.rss - before.rss) / 1024 / streams.length),
        heapPerStreamKiB: round1((after.heapUsed - before.heapUsed) / 1024 / streams.length),
      },
      load: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadAfter * 100) / 100 },
    };
  } finally {
    for (const s of streams) s.close();
    closeStreams();
    await closeProbe();
    closeSockets();
    await Promise.allSettled([api.stop(), publisher.stop()]);
    await database.drop().catch(() => undefined);
    await deleteKeys(redisUrl, prefix).catch(() => undefined);
  }
}

/**
 * Redis delivers a PUBLISH to the API's subscriber and the probe's in the same pass, so from
 * the probe's arrival to the client's parse is the API's share (its event loop, its writes,
 * the socket) plus the client's own lateness. Deltas a gap snapshot carried are not matched.
 */
function apiHops(probed: readonly { stamp: string; arrived: number }[], parsedAt: ReadonlyMap<string, number>): number[] {
  const hops: number[] = [];
  for (const p of probed) {
    const parsed = parsedAt.get(p.stamp);
    if (parsed !== undefined) hops.push(Math.max(0, parsed - p.arrived));
  }
  return hops;
}

async function memoryOf(api: BenchProcess): Promise<Memory> {
  const m = await ask<Memory>(api.child, { type: 'memory' }, 'memory');
  return { rss: m.rss, heapUsed: m.heapUsed };
}

const MiB = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** The section as printed. */
export function formatFanout(r: FanoutResult): string {
  const l = r.latencyMs;
  const rows = formatTable(
    ['', 'value', 'unit'],
    [
      [
        'streams connected',
        `${r.connected} of ${r.subscribers}`,
        `in ${r.connectSeconds} s (ticket + connect, ${CONNECT_CONCURRENCY} at a time)`,
      ],
      ['API CPU per stream opened', r.connectCpuMsPerStream, 'ms (ticket call included)'],
      ['API CPU, streams open and quiet', r.idleCpuPercent, `% of one core (over ${IDLE_MS / 1000} s)`],
      [
        'deltas published',
        String(r.published),
        `${r.deltasPerSecond}/s for ${(WARMUP_MS + r.windowMs) / 1000} s (publisher at most ${r.publisherBehindMs} ms behind)`,
      ],
      [
        'deltas delivered',
        String(r.delivered),
        `${r.lost} not arrived ${DRAIN_MS / 1000} s after the last publish (lost or late), ${r.snapshots} gap snapshots, ${r.misordered} out of order, ${r.streamsClosed} streams closed`,
      ],
      ['delivery latency p50', l.p50, 'ms (publish → client parsed)'],
      ['delivery latency p90', l.p90, 'ms'],
      ['delivery latency p99', l.p99, 'ms'],
      ['delivery latency max', l.max, 'ms'],
      [
        'publish → Redis subscriber p50 / p99',
        `${r.redisLatencyMs.p50} / ${r.redisLatencyMs.p99}`,
        `ms (the same deltas without the API, ${r.redisLatencyMs.n} on ${PROBED_CHANNELS} channels: publisher and Redis)`,
      ],
      [
        'API hop p50 / p90 / p99',
        `${r.apiHopMs.p50} / ${r.apiHopMs.p90} / ${r.apiHopMs.p99}`,
        `ms (Redis subscriber → client parsed, ${r.apiHopMs.n} deltas; max ${r.apiHopMs.max})`,
      ],
      ['bench client event-loop delay p99', r.clientLoopDelayMs.p99, `ms (max ${r.clientLoopDelayMs.max}; in both latencies above)`],
      ['machine busy, all cores', r.machineBusyPercent, `% (PostgreSQL ${r.postgresCpuPercent}, Redis ${r.redisCpuPercent} % of one core)`],
      ['API process CPU', r.apiCpuPercent, '% of one core'],
      ['API CPU per delta relayed', r.apiCpuMsPerDelta, `ms (${Math.round(1000 / r.apiCpuMsPerDelta)} deltas/s per core at most)`],
      ['API event-loop delay p99', r.eventLoopDelayMs.p99, `ms (p50 ${r.eventLoopDelayMs.p50}, max ${r.eventLoopDelayMs.max})`],
      [
        'API GC pauses',
        r.eventLoopDelayMs.gc.count,
        `in the window, ${r.eventLoopDelayMs.gc.totalMs} ms in all; the longest ${r.eventLoopDelayMs.gc.maxMs} ms (${r.eventLoopDelayMs.gc.maxKind})`,
      ],
      ['publisher / bench client CPU', `${r.publisherCpuPercent} / ${r.clientCpuPercent}`, '% of one core'],
      ['API RSS before → after connecting', `${MiB(r.memory.before.rss)} → ${MiB(r.memory.after.rss)}`, 'MiB'],
      ['API heap before → after connecting', `${MiB(r.memory.before.heapUsed)} → ${MiB(r.memory.after.heapUsed)}`, 'MiB (after a full GC)'],
      [
        'API RSS, heap after the window',
        `${MiB(r.memory.afterWindow.rss)}, ${MiB(r.memory.afterWindow.heapUsed)}`,
        'MiB (after a full GC)',
      ],
      ['memory per stream', `${r.memory.rssPerStreamKiB} RSS, ${r.memory.heapPerStreamKiB} heap`, 'KiB'],
    ],
    2,
  );
  return formatSection(
    `9. Fan-out (${r.subscribers} event streams on one API process, ${r.deltasPerSecond} reply deltas/s, ${r.windowMs / 1000} s window)`,
    [
      `load average ${r.load.before} before, ${r.load.after} at the end of the window; visitors set up in ${r.setupSeconds} s (session, conversation, message over HTTP, 32 at a time; then ${r.claimSeconds} s claiming their runs)`,
      ...(r.relayFailures > 0
        ? [`${r.relayFailures} relay calls failed in the publisher (not counted as published); first: ${r.firstRelayError}`]
        : []),
      ...(Math.max(r.load.before, r.load.after) > cpus().length
        ? [`the load average was above the ${cpus().length} cores: API, publisher, client, PostgreSQL and Redis share them`]
        : []),
    ],
    rows,
  );
}
