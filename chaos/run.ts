/**
 * `npm run chaos`: two API processes and three workers on one fresh PostgreSQL database and the
 * suite's own Redis, scripted visitors sending CHAOS_MESSAGES (default 5,000) messages over 50
 * conversations while a controller kills, freezes and restarts processes, restarts Redis and
 * ends the database connections; then a checker judges the database, the model server's
 * recordings and what the event streams delivered. Prints the figures; exits 1 on any
 * violation (unfinished work on a machine that had time for it is one), 2 when the run itself
 * could not finish (five-minute watchdog, or too much still unfinished to judge: see
 * check/unfinished-bound.ts). Everything on 127.0.0.1. Not part of `npm test`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDb } from '../api/src/db/client.ts';
import type { ModelServer } from '../api/src/model-server/server.ts';
import { readDatabase, type Facts } from './check/facts.ts';
import { computeFigures } from './check/figures.ts';
import { findUnfinished, judge, type Verdict } from './check/invariants.ts';
import { judgeUnfinished } from './check/unfinished-bound.ts';
import { FaultController } from './faults/controller.ts';
import type { ChaosEventStream } from './load/event-stream.ts';
import { startRedisTap } from './load/redis-tap.ts';
import { openVisitors, retryFailed, sendScript, type ChaosVisitor, type SentMessage } from './load/visitors.ts';
import { wireStats } from './load/wire.ts';
import { Random, sleep } from './random.ts';
import { formatReport } from './report.ts';
import { loadChaosSettings, PIPELINE, RUN_BOUND, WATCHDOG_MS } from './settings.ts';
import { appEnv, REDIS_PREFIX } from './stack/app-env.ts';
import { AppProcess } from './stack/fleet.ts';
import { freePort } from '../api/src/embedded/free-port.ts';
import { startChaosModel } from './stack/model.ts';
import { createChaosDatabase, type ChaosDatabase } from './stack/postgres.ts';
import { ChaosRedis } from './stack/redis-server.ts';

const settings = loadChaosSettings();
const random = new Random(settings.CHAOS_SEED);
const started = Date.now();
const phases: Record<string, number> = {};
const mark = (phase: string, since: number) => (phases[phase] = Math.round((Date.now() - since) / 100) / 10);
const say = (line: string) => console.log(`[chaos +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

const logDir = mkdtempSync(`${tmpdir()}/heed-chaos-`);
let database: ChaosDatabase | null = null;
let redis: ChaosRedis | null = null;
let model: ModelServer | null = null;
const processes: AppProcess[] = [];
const streams: ChaosEventStream[] = [];
let tap: Awaited<ReturnType<typeof startRedisTap>> | null = null;

async function cleanup(): Promise<void> {
  for (const s of streams) s.stop();
  await tap?.stop();
  await Promise.allSettled(processes.map((p) => p.close()));
  await Promise.allSettled([redis?.stop(), model?.close()]);
  if (database && settings.CHAOS_KEEP_DB === '0') await database.drop().catch(() => undefined);
}

const watchdog = setTimeout(() => {
  console.error(`[chaos] watchdog: the run did not finish within ${WATCHDOG_MS / 1000} s; logs in ${logDir}`);
  void cleanup().finally(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();

async function main(): Promise<number> {
  say(
    `seed ${settings.CHAOS_SEED}, ${settings.CHAOS_MESSAGES} messages over ${settings.CHAOS_CONVERSATIONS} conversations in ~${settings.sendSeconds} s; process logs in ${logDir}`,
  );
  let t = Date.now();
  database = await createChaosDatabase(settings.CHAOS_DATABASE_SERVER_URL);
  redis = await ChaosRedis.start(settings.CHAOS_REDIS_SERVER);
  model = await startChaosModel();
  tap = await startRedisTap(redis.url, REDIS_PREFIX);
  const siteKey = 'chaos-site';
  const db = createDb(database.url, { max: 1 });
  await db.site.create({ data: { key: siteKey, name: 'Chaos site' } });
  await db.$disconnect();

  const env = appEnv({ databaseUrl: database.url, redisUrl: redis.url, modelUrl: model.url });
  // No switch turns the API process's own worker off; with a concurrency of 0 it never claims.
  for (let i = 1; i <= 2; i++) {
    const port = await freePort();
    processes.push(new AppProcess(`api-${i}`, 'api', { ...env, PORT: String(port), HEED_WORKER: '0' }, logDir, port));
  }
  for (let i = 1; i <= 3; i++) processes.push(new AppProcess(`worker-${i}`, 'worker', env, logDir));
  await Promise.all(processes.map((p) => p.start()));
  const apis = processes.filter((p) => p.role === 'api');
  const workers = processes.filter((p) => p.role === 'worker');
  const urls = apis.map((a) => a.url);
  mark('setup', t);
  say(`stack up in ${phases.setup} s: ${apis.map((a) => a.url).join(', ')}, 3 workers, redis ${redis.url}, model ${model.url}`);

  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  const visitors = await openVisitors({
    apis: urls,
    siteKey,
    conversations: settings.CHAOS_CONVERSATIONS,
    streamShare: 0.6,
    random: random.fork(),
  });
  for (const v of visitors) if (v.stream) streams.push(v.stream);
  const controller = new FaultController(
    { apis, workers, redis, database },
    { random: random.fork(), meanGapMs: settings.CHAOS_FAULT_GAP_MS, leaseMs: PIPELINE.LEASE_MS, kinds: settings.CHAOS_FAULTS },
  );
  controller.start();

  t = Date.now();
  // The run is bounded: visitors start no new message after this (a machine too busy to send them
  // all in time sends fewer, and the report says so), early enough to leave the drain its budget.
  const drainMs = settings.CHAOS_DRAIN_S * 1000;
  const checkFrom = started + WATCHDOG_MS - RUN_BOUND.CHECK_MS;
  const stopSendingAt = Math.min(checkFrom - drainMs - RUN_BOUND.SEND_TAIL_MS, t + settings.sendSeconds * 1000 + 90_000);
  say(
    `sending until +${Math.round((stopSendingAt - started) / 1000)} s at the latest, then a drain of up to ${settings.CHAOS_DRAIN_S} s; watchdog at ${WATCHDOG_MS / 1000} s`,
  );
  const sent: SentMessage[] = [];
  const scripts: Promise<void>[] = [];
  const conversations = visitors.flatMap((v) => v.conversationIds.map((id) => ({ visitor: v, id })));
  conversations.forEach(({ visitor, id }, i) => {
    const count = Math.floor(settings.CHAOS_MESSAGES / conversations.length) + (i < settings.CHAOS_MESSAGES % conversations.length ? 1 : 0);
    scripts.push(
      sendScript({
        apis: urls,
        visitor,
        conversationId: id,
        tag: `c${i}`,
        count,
        seconds: settings.sendSeconds,
        stopAt: stopSendingAt,
        random: random.fork(),
        sent,
      }),
    );
  });
  const progress = setInterval(
    () =>
      say(
        `sent ${sent.length}, acknowledged ${sent.filter((s) => s.ackedAt).length}, model requests ${model?.requests.length}, faults ${controller.faults.length}`,
      ),
    15_000,
  );
  await Promise.all(scripts);
  clearInterval(progress);
  mark('send', t);
  say(`all ${sent.length} messages sent in ${phases.send} s; stopping faults`);
  await controller.stop();

  t = Date.now();
  // whatever a failed restart left down comes back, so the drain has all five processes
  for (const p of processes)
    if (!p.up) await p.start().catch((err: unknown) => controller.errors.push(`restart ${p.name}: ${String(err)}`));
  // its own budget, from its start; only a sending phase that overran its tail cuts it
  const drainEnd = Math.min(t + drainMs, checkFrom);
  const drainHadS = Math.round((drainEnd - t) / 100) / 10;
  const retries = await drain(database, visitors, urls, drainEnd);
  mark('drain', t);
  const loadAverage = loadavg().map((x) => Math.round(x * 100) / 100);
  say(`drain ended after ${phases.drain} s of its ${settings.CHAOS_DRAIN_S} s (${retries} failed messages re-queued by visitors)`);
  for (const s of streams) s.stop();
  const tapped = tap.tapped;
  await tap.stop();
  tap = null;
  loopDelay.disable();

  t = Date.now();
  const facts: Facts = {
    ...(await readDatabase(database.url)),
    requests: model.requests,
    sent,
    streams: visitors
      .filter((v) => v.stream)
      .map((v) => ({
        visitorId: v.visitorId,
        startCursor: v.stream!.startCursor,
        connections: v.stream!.connections,
        received: v.stream!.received,
      })),
    tapped: tapped,
    faults: controller.faults,
  };
  writeFileSync(`${logDir}/faults.json`, `${JSON.stringify(controller.faults, null, 1)}\n`);
  const verdicts: Verdict[] = judge(facts);
  const crashes = [...processes.flatMap((p) => p.crashes), ...controller.errors];
  const bootFailures = processes.flatMap((p) => p.bootFailures.map((f) => `${p.name}: ${f}`));
  verdicts.push({
    name: 'crashed',
    rule: 'no process exits by itself, every restart succeeds',
    count: crashes.length,
    examples: crashes.slice(0, 5),
  });
  const figures = computeFigures(facts);
  const unfinished = findUnfinished(facts);
  const drainEndState = {
    budgetS: settings.CHAOS_DRAIN_S,
    hadS: drainHadS,
    tookS: phases.drain!,
    loadAverage: loadAverage[0]!,
    cores: availableParallelism(),
  };
  const unfinishedVerdict = judgeUnfinished(unfinished, sent.length, drainEndState, settings.CHAOS_UNFINISHED_PCT);
  mark('check', t);
  mark('total', started);
  console.log(
    formatReport({
      settings,
      figures,
      verdicts,
      unfinished,
      unfinishedVerdict,
      drain: drainEndState,
      faults: controller.counts(),
      wire: wireStats,
      visitorRetries: retries,
      planned: settings.CHAOS_MESSAGES,
      bootFailures,
      incarnations: Object.fromEntries(processes.map((p) => [p.name, p.incarnations])),
      eventLoopDelayMs: { p99: Math.round(loopDelay.percentile(99) / 1e6), max: Math.round(loopDelay.max / 1e6) },
      phases,
      loadAverage,
      logDir,
      database: settings.CHAOS_KEEP_DB === '1' ? database.url : null,
    }),
  );
  if (verdicts.some((v) => v.count > 0) || unfinishedVerdict.outcome === 'violation') return 1;
  return unfinishedVerdict.outcome === 'inconclusive' ? 2 : 0;
}

/**
 * Waits, not past `deadline`, until every visitor message is answered and every stream has caught
 * up with its visitor's log; what is still on its way then is reported as unfinished. A batch
 * whose reply failed (a fault during its write) is asked for again, as the visitor presses
 * "retry" in the widget. Returns how many messages were re-queued that way.
 */
async function drain(db: ChaosDatabase, visitors: ChaosVisitor[], urls: string[], deadline: number): Promise<number> {
  const byConversation = new Map(visitors.flatMap((v) => v.conversationIds.map((id) => [id, v] as const)));
  const reader = createDb(db.url, { max: 1 });
  let requeued = 0;
  try {
    while (Date.now() < deadline) {
      const open = await reader.message.groupBy({
        by: ['conversationId', 'state'],
        where: { role: 'user', state: { not: 'answered' } },
        _count: true,
      });
      for (const row of open.filter((r) => r.state === 'failed')) {
        const visitor = byConversation.get(row.conversationId);
        // a retry the drain's end cuts off leaves its batch failed, and the checker counts it
        if (visitor) requeued += await retryFailed(urls, visitor, row.conversationId, random, deadline).catch(() => 0);
      }
      const lastEvents = await reader.event.groupBy({ by: ['visitorId'], _max: { id: true } });
      const newest = new Map(lastEvents.map((e) => [e.visitorId, e._max.id ?? 0n]));
      const behind = visitors.filter((v) => v.stream && BigInt(v.stream.cursor) < (newest.get(v.visitorId) ?? 0n));
      if (open.length === 0 && behind.length === 0) return requeued;
      await sleep(Math.min(500, deadline - Date.now()));
    }
    return requeued;
  } finally {
    await reader.$disconnect();
  }
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error('[chaos] the run could not finish:', err);
    console.error(`[chaos] process logs in ${logDir}`);
    await cleanup();
    process.exit(2);
  });
