import { readdir, readFile } from 'node:fs/promises';

/**
 * One process's command name, CPU seconds (user + system) so far, CPU seconds of its children that
 * ended and were reaped (`reapedSeconds`), and nice value (its main thread's), from /proc (Linux);
 * null once it is gone.
 */
export async function processCpu(
  pid: number | string,
): Promise<{ name: string; seconds: number; reapedSeconds: number; nice: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  // the command name is in parentheses and may hold spaces; the fields after it are space-separated
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    name,
    seconds: (Number(fields[11]) + Number(fields[12])) / 100,
    reapedSeconds: (Number(fields[13]) + Number(fields[14])) / 100,
    nice: Number(fields[16]),
  };
}

/**
 * CPU seconds (user + system) used so far by every process, summed by command name, with what
 * each one's ended children used (reaped). A process that ends thus stays counted, in its
 * parent's reaped time: PostgreSQL's postmaster reaps its backends, autovacuum workers and
 * parallel workers, all `postgres`, so that total never drops. Without the reaped time it did:
 * a backend alive at the first reading whose connection closed before the second (pools close
 * connections idle for a while; seen here with up to 2 s of CPU each) took its whole CPU out of the
 * difference, and the ingest bench printed PostgreSQL at 28–48 % of a core while `top` showed its
 * processes at ~100 % (2026-12-02).
 */
export async function cpuByCommand(): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cpu = await processCpu(pid);
    if (cpu) totals.set(cpu.name, (totals.get(cpu.name) ?? 0) + cpu.seconds + cpu.reapedSeconds);
  }
  return totals;
}

/**
 * CPU seconds each command used between two readings of {@link cpuByCommand}. Only a process
 * whose parent is another command (or that ended unreaped) is lost when it ends in between.
 */
export function cpuBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const used = new Map<string, number>();
  for (const [name, seconds] of after) used.set(name, Math.max(0, seconds - (before.get(name) ?? 0)));
  return used;
}
