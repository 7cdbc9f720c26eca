import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The fan-out bench's API process: the ingest bench's (bench/ingest/api-process.ts, main.ts
 * without its worker) plus answers over IPC with its heap and event-loop delay, which only
 * the process itself can read. Production code carries none of it.
 */
setFlagsFromString('--expose-gc');
// FANOUT_TRACE_GC=1: one line per collection in the process's log (/tmp/heed-bench-ingest-<name>.log),
// with the bytes each young collection promoted: what fills the old generation
if (process.env.FANOUT_TRACE_GC) setFlagsFromString('--trace-gc-nvp');
const gc = runInNewContext('gc') as () => void;
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
/** the collector's pauses since the last reset, by kind: which of them the event-loop stalls are */
let gcPauses: { kind: string; ms: number }[] = [];
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};
new PerformanceObserver((list) => {
  for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind: number } })[])
    gcPauses.push({ kind: GC_KINDS[e.detail?.kind ?? -1] ?? 'other', ms: e.duration });
}).observe({ entryTypes: ['gc'] });

process.on('message', (m: { type?: string }) => {
  if (m?.type === 'memory') {
    // a collection first, so the heap delta is live objects, not garbage not yet collected
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ type: 'memory', rss, heapUsed });
  } else if (m?.type === 'heap:snapshot' && PROFILE_DIR) {
    writeHeapSnapshot(join(PROFILE_DIR, 'fanout-api.heapsnapshot'));
    process.send!({ type: 'heap:written' });
  } else if (m?.type === 'profile:start' && PROFILE_DIR) {
    void startProfile();
  } else if (m?.type === 'profile:stop' && PROFILE_DIR) {
    void stopProfile();
  } else if (m?.type === 'delay:reset') {
    delay.reset();
    gcPauses = [];
  } else if (m?.type === 'delay:read') {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const longest = gcPauses.reduce((a, b) => (b.ms > a.ms ? b : a), { kind: 'none', ms: 0 });
    const gc = {
      count: gcPauses.length,
      totalMs: Math.round(gcPauses.reduce((n, p) => n + p.ms, 0)),
      maxMs: Math.round(longest.ms * 10) / 10,
      maxKind: longest.kind,
    };
    process.send!({ type: 'delay', p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), gc });
  }
});

/** FANOUT_PROFILE=<dir>: a CPU profile of the measured window and a heap snapshot with the streams open, for a look in DevTools. */
const PROFILE_DIR = process.env.FANOUT_PROFILE;
const session = new Session();

async function startProfile() {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  // every allocation's site, garbage included: where the collector's work comes from
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

async function stopProfile() {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(PROFILE_DIR!, 'fanout-api.cpuprofile'), JSON.stringify(profile));
  const { profile: heap } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(join(PROFILE_DIR!, 'fanout-api.heapprofile'), JSON.stringify(heap));
}

await import('../ingest/api-process.ts');
