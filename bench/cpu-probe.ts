/** Iterations of the probe's loop: 160–300 ms on the 2-core VM of 2026-12-02. */
const ITERATIONS = 30_000_000;

/**
 * Times a fixed loop of integer arithmetic on this thread, in ms: the CPU's speed right now.
 * On one VM of 2026-12-02 (the noisy Xeon of bench/FINDINGS.md) a loop ten times as long took 1.1–2.7 s from one minute to the next
 * (another tenant's load, unseen in the load average or steal time), and every figure of a
 * section moves with it; printed around each section, it says how fast the machine was then.
 * @example const before = cpuProbeMs(); await measure(); const after = cpuProbeMs();
 */
export function cpuProbeMs(): number {
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < ITERATIONS; i++) x = (x + i * 7) % 1_000_003;
  const ms = performance.now() - t0;
  // the result is used, so the loop cannot be optimized away
  return x < 0 ? -1 : Math.round(ms);
}
