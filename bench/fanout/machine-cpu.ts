import { readFile } from 'node:fs/promises';

/** Busy and total jiffies of the whole machine so far (Linux /proc/stat, every core). */
export async function machineJiffies(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
  const [, ...fields] = line.trim().split(/\s+/);
  const n = fields.map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the not-busy ones
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - n[3]! - n[4]!, total };
}

/** The share of all cores busy between two readings, in % (100 = every core busy). */
export function busyPercent(before: { busy: number; total: number }, after: { busy: number; total: number }): number {
  return ((after.busy - before.busy) / Math.max(1, after.total - before.total)) * 100;
}
