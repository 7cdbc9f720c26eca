/**
 * `npm run bench`: Heed's figures on this machine, printed as tables and written to
 * bench/results/latest.json. No thresholds: it measures, it does not judge. Each section gets a
 * fresh stack (test/support/harness.ts) that is torn down, database included, before the next.
 * A section that crashes is reported and makes the exit code 1; the others still run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formatBundleSize, measureBundleSize } from './bundle-size.ts';
import { formatConsoleList, measureConsoleList } from './console-list.ts';
import { formatDebounceOverhead, measureDebounceOverhead } from './debounce-overhead.ts';
import { cpuProbeMs } from './cpu-probe.ts';
import { describeEnvironment, type Environment } from './environment.ts';
import { DEBOUNCE_MS, stopAllStacks, withStack } from './stack.ts';
import { formatSustainedSends, measureSustainedSends } from './sustained-sends.ts';
import { formatSection } from './table.ts';
import { formatTokenRelay, measureTokenRelay } from './token-relay.ts';
import { formatTypingDebounce, measureTypingDebounce } from './typing-debounce.ts';
import { formatStoreModes, measureStoreModes } from './store-modes.ts';
import { formatContextBuild, measureContextBuild } from './context-build.ts';
import { formatKnowledgeRetrieval, measureKnowledgeRetrieval } from './knowledge-retrieval.ts';
import { formatRetentionSweep, measureRetentionSweep } from './retention-sweep.ts';

/**
 * The whole bench takes several minutes on a quiet two-core machine (seeding 100,000
 * conversations, the ingest section's processes and the fan-out section's 5,000 visitors are
 * most of it); past this it gives up and tears its stacks down.
 */
const WATCHDOG_MS = 900_000;
const RESULTS = new URL('./results/', import.meta.url);
/** `npm run bench -- --only=consoleList,bundleSize`: just those sections (by key), written to results/only.json, not latest.json. */
const ONLY = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

interface Section<T> {
  key: string;
  title: string;
  measure: () => Promise<T>;
  format: (result: T) => string;
}

const sections = [
  section({
    key: 'debounceOverhead',
    title: '1. Debounce expiry → model request',
    measure: () => withStack((heed) => measureDebounceOverhead(heed)),
    format: formatDebounceOverhead,
  }),
  section({
    key: 'tokenRelay',
    title: '2. Token relay latency',
    measure: () => withStack((heed) => measureTokenRelay(heed)),
    format: formatTokenRelay,
  }),
  section({
    key: 'sustainedSends',
    title: '3. Sustained sends',
    measure: () => withStack((heed) => measureSustainedSends(heed)),
    format: formatSustainedSends,
  }),
  section({ key: 'bundleSize', title: '4. Bundle sizes', measure: measureBundleSize, format: formatBundleSize }),
  // no reply worker: the seeded live conversations must stay live while the list is timed
  section({
    key: 'consoleList',
    title: '5. Console list',
    measure: () => withStack((heed) => measureConsoleList(heed), { workers: 0 }),
    format: formatConsoleList,
  }),
  section({ key: 'storeModes', title: '6. Embedded mode beside servers', measure: measureStoreModes, format: formatStoreModes }),
  section({
    key: 'contextBuild',
    title: '7. Context build by conversation length',
    measure: () => withStack((heed) => measureContextBuild(heed), { workers: 0 }),
    format: formatContextBuild,
  }),
  ...(await import('./ingest.ts').then((m) => [
    section({ key: 'ingest', title: '8. Ingest', measure: m.measureIngest, format: m.formatIngest }),
  ])),
  ...(await import('./fanout.ts').then((m) => [
    section({ key: 'fanout', title: '9. Fan-out', measure: m.measureFanout, format: m.formatFanout }),
  ])),
  section({ key: 'typingDebounce', title: '10. Typing-aware debounce', measure: measureTypingDebounce, format: formatTypingDebounce }),
  section({
    key: 'knowledgeRetrieval',
    title: '11. Site knowledge',
    measure: measureKnowledgeRetrieval,
    format: formatKnowledgeRetrieval,
  }),
  section({
    key: 'retentionSweep',
    title: '12. Retention sweep',
    measure: () => withStack((heed) => measureRetentionSweep(heed), { workers: 1 }),
    format: formatRetentionSweep,
  }),
];

async function main(): Promise<number> {
  const started = performance.now();
  const environment = await describeEnvironment();
  console.log(formatEnvironment(environment));
  const results: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  /** the CPU probe's ms before and after each section: how fast the machine was meanwhile */
  const cpuProbes: Record<string, { before: number; after: number }> = {};
  for (const s of sections.filter((candidate) => !ONLY || ONLY.includes(candidate.key))) {
    const t0 = performance.now();
    const before = cpuProbeMs();
    try {
      const result = await s.measure();
      results[s.key] = result;
      console.log(`\n${s.format(result)}`);
    } catch (err) {
      errors[s.key] = err instanceof Error ? err.message : String(err);
      console.log(`\n${formatSection(s.title, [], `  error: ${errors[s.key]}`)}`);
      console.error(err);
    }
    const probe = (cpuProbes[s.key] = { before, after: cpuProbeMs() });
    console.log(
      `  (${((performance.now() - t0) / 1000).toFixed(1)} s; the CPU probe took ${probe.before} ms before, ${probe.after} after)`,
    );
  }
  const totalSeconds = Math.round((performance.now() - started) / 100) / 10;
  const loadAverageAtEnd = Math.round(loadavg()[0]! * 100) / 100;
  const file = fileURLToPath(new URL(ONLY ? 'only.json' : 'latest.json', RESULTS));
  await mkdir(fileURLToPath(RESULTS), { recursive: true });
  await writeFile(
    file,
    `${JSON.stringify({ generatedAt: new Date().toISOString(), totalSeconds, loadAverageAtEnd, environment, cpuProbes, debounceMs: DEBOUNCE_MS, results, errors }, null, 2)}\n`,
  );
  console.log(`\nbench: ${totalSeconds} s, load average ${loadAverageAtEnd} at the end; figures written to ${file}`);
  return Object.keys(errors).length === 0 ? 0 : 1;
}

function formatEnvironment(e: Environment): string {
  return formatSection(
    'Heed bench',
    [
      `node ${e.node} on ${e.platform}, ${e.cores} cores (${e.cpu}), ${e.memoryGiB} GiB, load average ${e.loadAverageAtStart} (1 min)`,
      `PostgreSQL ${e.postgres} (a round trip, SELECT 1: p50 ${e.postgresRoundTripMs ?? '?'} ms), Redis ${e.redis}, commit ${e.commit}`,
      `CPU probe (bench/cpu-probe.ts, a fixed loop): ${e.cpuProbeMs} ms now, and before and after each section below; the same loop on another machine, or on this one later, compares`,
      `DEBOUNCE_MS=${DEBOUNCE_MS} for every stack; API, worker, model server and clients share this one process (loopback only)`,
    ],
    '',
  ).trimEnd();
}

/** Keeps each section's result type tied to its formatter while the list holds them all. */
function section<T>(s: Section<T>): Section<unknown> {
  return s as Section<unknown>;
}

async function stopAndExit(code: number, why: string): Promise<never> {
  console.error(`\nbench: ${why}; tearing down`);
  await stopAllStacks();
  process.exit(code);
}

const watchdog = setTimeout(() => void stopAndExit(1, `still running after ${WATCHDOG_MS / 1000} s`), WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAndExit(130, signal));

const code = await main().catch(async (err: unknown) => {
  console.error(err);
  await stopAllStacks();
  return 1;
});
// Clients keep idle keep-alive sockets (and EventSource retry timers) for a few seconds; the stacks
// are down and the figures written, so there is nothing left to wait for.
process.exit(code);
