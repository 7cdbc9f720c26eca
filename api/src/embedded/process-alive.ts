/**
 * Whether a process with this pid exists (signal 0 checks without sending anything). EPERM
 * means it exists but belongs to another user, as the embedded PostgreSQL does when Heed runs
 * as root. Used wherever a pid file or a name records an owner that may have died.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
