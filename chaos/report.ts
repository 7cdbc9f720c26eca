import type { Figures } from './check/figures.ts';
import { formatCounts } from './check/figures.ts';
import type { Verdict } from './check/invariants.ts';
import type { Unfinished } from './check/unfinished.ts';
import type { DrainEnd, UnfinishedOutcome } from './check/unfinished-bound.ts';
import type { FaultKind } from './faults/controller.ts';
import type { ChaosSettings } from './settings.ts';

export interface Report {
  settings: ChaosSettings;
  figures: Figures;
  verdicts: Verdict[];
  /** what the drain's end caught half-way, and whether that is past the bound */
  unfinished: Unfinished;
  unfinishedVerdict: { outcome: UnfinishedOutcome; why: string };
  drain: DrainEnd;
  faults: Record<FaultKind, number>;
  wire: { attempts: number; networkErrors: number; serverErrors: number; throttled: number; timeouts: number };
  visitorRetries: number;
  /** messages the run meant to send (CHAOS_MESSAGES) */
  planned: number;
  /** start-ups that ended before serving (refusals while a store was away, crashes at boot), each retried */
  bootFailures: string[];
  incarnations: Record<string, number>;
  eventLoopDelayMs: { p99: number; max: number };
  phases: Record<string, number>;
  loadAverage: number[];
  logDir: string;
  database: string | null;
}

/** The run's report as plain text: figures first, then each invariant with its count (and examples when broken). */
export function formatReport(r: Report): string {
  const f = r.figures;
  const totalFaults = Object.values(r.faults).reduce((a, b) => a + b, 0);
  const runs = Object.entries(f.runs)
    .filter(([k]) => k !== 'total')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const lines = [
    '',
    '== Heed chaos run ==',
    `seed ${r.settings.CHAOS_SEED}; ${r.phases.total} s in all (setup ${r.phases.setup} s, sending ${r.phases.send} s, drain ${r.phases.drain} s, check ${r.phases.check} s); load average ${r.loadAverage.join(' ')}`,
    `messages    ${f.messages.sent} of ${r.planned} planned sent${f.messages.sent < r.planned ? ' (the rest not started within the time bound: a busy machine)' : ''} over ${f.messages.conversations} conversations, ${f.messages.acknowledged} acknowledged, ${f.messages.stored} stored`,
    `runs        ${f.runs.total} (${runs}); ${f.batch.mean} messages per answering run on average, at most ${f.batch.max}`,
    `model       ${f.model.requests} requests, ${f.model.aborted} cut off by their worker, ${f.model.wastedOnAnsweredBatches} for batches already answered`,
    `latency     send → reply stored: p50 ${f.answerLatencyMs.p50} ms, p99 ${f.answerLatencyMs.p99} ms, max ${f.answerLatencyMs.max} ms`,
    `faults      ${totalFaults}: ${formatCounts(r.faults)}`,
    `processes   started ${Object.entries(r.incarnations)
      .map(([k, v]) => `${k} ×${v}`)
      .join(', ')}; ${r.bootFailures.length} start-ups ended before serving and were retried`,
    ...r.bootFailures.slice(0, 5).map((b) => `              - ${b}`),
    `senders     ${r.wire.attempts} HTTP attempts: ${r.wire.networkErrors} network errors, ${r.wire.timeouts} timeouts, ${r.wire.serverErrors} 5xx, ${r.wire.throttled} 429, all retried with the same id; ${r.visitorRetries} failed messages re-queued by "retry"`,
    `streams     ${f.streams.clients} clients, ${f.streams.reconnected} reconnected (${f.streams.connections} connections); ${f.streams.durableEvents} durable events, ${f.streams.liveEvents} deltas/snapshots (${f.streams.liveAfterRunEnded} after their run's end, dropped by the widget's store)`,
    `suite       event-loop delay p99 ${r.eventLoopDelayMs.p99} ms, max ${r.eventLoopDelayMs.max} ms; logs ${r.logDir}${r.database ? `; database kept: ${r.database}` : ''}`,
    '',
    'invariants',
    ...r.verdicts.flatMap((v) => [
      `  ${v.count === 0 ? 'ok  ' : 'FAIL'} ${v.name.padEnd(16)} ${String(v.count).padStart(5)}  ${v.rule}`,
      ...v.examples.map((e) => `         - ${e}`),
    ]),
    '',
    ...formatUnfinished(r),
    '',
    formatOutcome(r),
  ];
  return lines.join('\n');
}

/** Unfinished work on its own lines: it is late, not wrong, and fails only past its bound. */
function formatUnfinished(r: Report): string[] {
  const u = r.unfinished;
  const d = r.drain;
  const machine = `load average ${d.loadAverage} on ${d.cores} cores`;
  if (u.messages === 0 && u.streams === 0) return [`unfinished  0 (the drain ended after ${d.tookS} s of its ${d.budgetS} s; ${machine})`];
  const sent = r.figures.messages.sent;
  const ranOut =
    d.tookS < d.hadS
      ? `the drain ended after ${d.tookS} s of its ${d.budgetS} s`
      : d.hadS < d.budgetS
        ? `the drain's ${d.budgetS} s, cut to ${d.hadS} s by the run's bound, ran out`
        : `the drain's ${d.budgetS} s ran out`;
  const streams = u.streams > 0 ? `; ${plural(u.streams, 'stream')} ${plural(u.events, 'event')} behind` : '';
  const mark =
    r.unfinishedVerdict.outcome === null
      ? 'ok  '
      : r.unfinishedVerdict.outcome === 'violation'
        ? 'FAIL (exit 1)'
        : 'FAIL (exit 2, inconclusive)';
  return [
    `unfinished  ${u.messages} of ${sent} sent (${Math.round((u.messages / Math.max(1, sent)) * 1000) / 10} %), still being answered when ${ranOut}: ${u.claimed} claimed by the ${plural(u.runs, 'run')} still in progress, ${u.messages - u.claimed} queued for their conversation's next claim${streams}; ${machine}`,
    `  ${mark} ${r.unfinishedVerdict.why}`,
    ...u.examples.map((e) => `         - ${e}`),
  ];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function formatOutcome(r: Report): string {
  const broken = r.verdicts.filter((v) => v.count > 0).map((v) => `${v.name} ${v.count}`);
  if (r.unfinishedVerdict.outcome === 'violation') broken.push(`unfinished ${r.unfinished.messages}`);
  const inconclusive =
    r.unfinishedVerdict.outcome === 'inconclusive' ? `; inconclusive: ${r.unfinished.messages} messages unfinished, past the bound` : '';
  return `violations: ${broken.length > 0 ? broken.join(', ') : 'none'}${inconclusive}`;
}
