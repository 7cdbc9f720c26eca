import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TestHeed } from '../test/support/harness.ts';
import { rounded, summarize, type Summary } from './stats.ts';
import { describeSettings, serviceLogNote, settingsOf, type StackSettings } from './stack.ts';
import { formatSection, formatTable } from './table.ts';

export interface SustainedSendsResult {
  settings: StackSettings;
  concurrency: number;
  durationMs: number;
  /** sends the API accepted (returned a row) */
  accepted: number;
  rejected: number;
  sendsPerSecond: number;
  sendLatencyMs: Summary;
  /** from the end of the send window until every accepted send had its reply (or its failure) */
  drainMs: number;
  drained: boolean;
  runs: Record<string, number>;
  repliesCompleted: number;
  repliesFailed: number;
  userMessages: Record<string, number>;
  /** user messages answered by one completed run */
  batchSize: Summary;
  /** CPU this Node process used during the send window, in % of one core (100 = one core busy) */
  processCpuPercent: number;
  /** how late timers fired during the send window: a saturated event loop shows here first */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  notes: string[];
}

/**
 * Closed-loop load: `concurrency` visitors, one conversation each, every one sending again as soon
 * as its previous send returned, for `durationMs`; then waits (bounded) until every accepted send
 * is answered and counts runs and replies from the database. All of it (API, worker, model server,
 * clients) shares this one Node process, like the default single-process deployment does.
 */
export async function measureSustainedSends(
  heed: TestHeed,
  opts: { concurrency?: number; durationMs?: number; drainTimeoutMs?: number } = {},
): Promise<SustainedSendsResult> {
  const concurrency = opts.concurrency ?? 32;
  const durationMs = opts.durationMs ?? 10_000;
  const drainTimeoutMs = opts.drainTimeoutMs ?? 30_000;
  const senders = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const visitor = await heed.visitor();
      return { visitor, conversationId: await visitor.conversation() };
    }),
  );

  const latencies: number[] = [];
  let rejected = 0;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    senders.map(async ({ visitor, conversationId }, loop) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t0 = performance.now();
        try {
          await visitor.send(conversationId, `load ${loop}.${i} ${randomUUID().slice(0, 8)}`);
          latencies.push(performance.now() - t0);
        } catch {
          rejected++;
        }
      }
    }),
  );
  const windowMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  loopDelay.disable();

  const drainStarted = performance.now();
  const drained = await waitUntilDrained(heed, drainTimeoutMs);
  const drainMs = performance.now() - drainStarted;
  const counts = await countOutcomes(heed);

  return {
    settings: settingsOf(heed),
    concurrency,
    durationMs,
    accepted: latencies.length,
    rejected,
    sendsPerSecond: Math.round((latencies.length / (windowMs / 1000)) * 10) / 10,
    sendLatencyMs: rounded(summarize(latencies)),
    drainMs: Math.round(drainMs),
    drained,
    ...counts,
    processCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / windowMs) * 1000) / 10,
    eventLoopDelayMs: rounded({
      p50: loopDelay.percentile(50) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
      max: loopDelay.max / 1e6,
    }),
    notes: serviceLogNote(heed),
  };
}

/** True once no user message waits for a reply and no run is in flight; false at the timeout. */
async function waitUntilDrained(heed: TestHeed, timeoutMs: number): Promise<boolean> {
  const db = heed.services.db;
  try {
    await heed.until(
      'every accepted send to be answered',
      async () => {
        const [waiting, running] = await Promise.all([
          db.message.count({ where: { role: 'user', state: { in: ['pending', 'claimed'] } } }),
          db.run.count({ where: { status: { in: ['claimed', 'streaming'] } } }),
        ]);
        return waiting === 0 && running === 0;
      },
      timeoutMs,
    );
    return true;
  } catch {
    return false;
  }
}

/** Runs by status, replies, user messages by state and batch sizes, from this stack's own database. */
async function countOutcomes(heed: TestHeed) {
  const db = heed.services.db;
  const [runs, users, batches, repliesCompleted, repliesFailed] = await Promise.all([
    db.$queryRaw<{ key: string; n: number }[]>`SELECT status::text AS key, count(*)::int AS n FROM "Run" GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ key: string; n: number }[]>`
      SELECT coalesce(state::text, 'none') AS key, count(*)::int AS n FROM "Message" WHERE role = 'user' GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "Message" m JOIN "Run" r ON r.id = m."runId"
      WHERE m.role = 'user' AND r.status = 'completed' GROUP BY m."runId"`,
    db.message.count({ where: { role: 'assistant', error: null } }),
    db.message.count({ where: { role: 'assistant', error: { not: null } } }),
  ]);
  const byKey = (rows: { key: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.key, r.n]));
  return {
    runs: byKey(runs),
    userMessages: byKey(users),
    repliesCompleted,
    repliesFailed,
    batchSize: rounded(summarize(batches.map((b) => b.n))),
  };
}

/** The section as printed. */
export function formatSustainedSends(r: SustainedSendsResult): string {
  const totalRuns = Object.values(r.runs).reduce((sum, n) => sum + n, 0);
  const runBreakdown =
    Object.entries(r.runs)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ') || 'none';
  const users =
    Object.entries(r.userMessages)
      .map(([state, n]) => `${state} ${n}`)
      .join(', ') || 'none';
  const figures = formatTable(
    ['', 'value', 'unit'],
    [
      ['accepted sends', String(r.accepted), 'sends'],
      ['rejected sends', String(r.rejected), 'sends'],
      ['throughput', r.sendsPerSecond, 'sends/s'],
      ['send latency p50', r.sendLatencyMs.p50, 'ms'],
      ['send latency p99', r.sendLatencyMs.p99, 'ms'],
      ['send latency max', r.sendLatencyMs.max, 'ms'],
      ['replies completed', String(r.repliesCompleted), 'replies'],
      ['replies failed', String(r.repliesFailed), 'replies'],
      ['runs', String(totalRuns), `runs (${runBreakdown})`],
      ['sends per completed run p50', r.batchSize.p50, 'sends'],
      ['sends per completed run max', r.batchSize.max, 'sends'],
      ['drain after the window', String(r.drainMs), r.drained ? 'ms' : 'ms (NOT drained: timed out)'],
      ['node process CPU in the window', r.processCpuPercent, '% of one core'],
      ['event loop delay p99', r.eventLoopDelayMs.p99, 'ms'],
    ],
  );
  return formatSection(
    `3. Sustained sends (${r.concurrency} concurrent visitors, one conversation each, ${r.durationMs / 1000} s closed loop)`,
    [describeSettings(r.settings), `user messages by state after the drain: ${users}`, ...r.notes],
    figures,
  );
}
