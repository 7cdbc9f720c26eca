import { preciseNow, rounded, sleep, summarize, type Summary } from '../stats.ts';

export interface OpenLoopResult {
  /** sends per second the schedule offered */
  offeredPerSecond: number;
  /** sends answered per second over the window (the offered rate if the API kept up) */
  answeredPerSecond: number;
  accepted: number;
  rejected: number;
  /** from each send's scheduled time, not its actual start: a late start counts as waiting */
  latencyMs: Summary;
  /** the most sends in flight at once (a closed loop holds this at its visitor count) */
  maxInFlight: number;
  /**
   * the p99 of the sends due in each SLICE_MS of the window, in order: where the tail comes from
   * (a steady tail, or bursts such as the reply waves)
   */
  sliceP99Ms: number[];
}

/** The slices of the window {@link OpenLoopResult.sliceP99Ms} is given in. */
export const SLICE_MS = 500;

/** How often the schedule issues the sends that are due (each ~1 ms apart at 1,000/s). */
const TICK_MS = 2;

/**
 * Sends at a fixed rate whatever the answers' pace (an open loop, as independent visitors
 * send): send i is due at start + i / rate, round robin over the visitors, and its latency
 * counts from when it was due, so a stalled API shows as latency instead of as fewer sends
 * (no coordinated omission). The closed loop beside it (ingest.ts) measures capacity: there
 * every answer releases the next send, so at saturation its latency is the visitor count
 * divided by the throughput (Little's law), not the latency at any given rate. Latencies of
 * the first `warmupMs` are left out.
 */
export async function openLoop<V>(
  visitors: readonly V[],
  send: (visitor: V, i: number) => Promise<unknown>,
  opts: { ratePerSecond: number; warmupMs: number; windowMs: number },
): Promise<OpenLoopResult> {
  const latencies: number[] = [];
  /** the measured sends' latencies by the slice of the window they were due in */
  const slices: number[][] = [];
  const inFlight = new Set<Promise<void>>();
  let maxInFlight = 0;
  let rejected = 0;
  const start = preciseNow();
  const measureFrom = start + opts.warmupMs;
  const end = measureFrom + opts.windowMs;
  const dueAt = (i: number) => start + (i * 1000) / opts.ratePerSecond;
  let next = 0;
  while (dueAt(next) < end) {
    const now = preciseNow();
    for (; dueAt(next) <= now && dueAt(next) < end; next++) {
      const due = dueAt(next);
      const measured = due >= measureFrom;
      const call: Promise<void> = send(visitors[next % visitors.length]!, next).then(
        () => {
          if (!measured) return;
          const latency = preciseNow() - due;
          latencies.push(latency);
          (slices[Math.floor((due - measureFrom) / SLICE_MS)] ??= []).push(latency);
        },
        () => {
          if (measured) rejected++;
        },
      );
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    maxInFlight = Math.max(maxInFlight, inFlight.size);
    await sleep(TICK_MS);
  }
  await Promise.all(inFlight);
  const answeredMs = preciseNow() - measureFrom;
  return {
    offeredPerSecond: opts.ratePerSecond,
    answeredPerSecond: Math.round((latencies.length / answeredMs) * 1000 * 10) / 10,
    accepted: latencies.length,
    rejected,
    latencyMs: rounded(summarize(latencies)),
    maxInFlight,
    sliceP99Ms: Array.from(slices, (slice) => Math.round(summarize(slice ?? []).p99 * 10) / 10),
  };
}
