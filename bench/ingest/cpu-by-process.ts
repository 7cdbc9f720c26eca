import { readdir, readFile } from 'node:fs/promises';

/** One process's command name, CPU seconds (user + system) so far and nice value (its main thread's), from /proc (Linux); null once it is gone. */
export async function processCpu(pid: number | string): Promise<{ name: string; seconds: number; nice: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // the command name is in parentheses and may hold spaces; the fields after it are space-separated
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100, nice: Number(fields[16]) };
}

/** CPU seconds (user + system) used so far by every process, summed by command name. */
export async function cpuByCommand(): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cpu = await processCpu(pid);
    if (cpu) totals.set(cpu.name, (totals.get(cpu.name) ?? 0) + cpu.seconds);
  }
  return totals;
}

/**
 * CPU seconds each command used between two readings. A process that ended in between is
 * missing from the second reading: its share is lost, so short-lived processes are undercounted
 * (PostgreSQL's backends live as long as their pooled connections: the whole window).
 */
export function cpuBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const used = new Map<string, number>();
  for (const [name, seconds] of after) used.set(name, Math.max(0, seconds - (before.get(name) ?? 0)));
  return used;
}
