/**
 * Uploads inspected at once in one process. Cleaning a 40-megapixel image holds ~160 MB while
 * it runs (12 MP: ~85 MB, measured on a 2-core EPYC), and libuv would run four; two keep an
 * API process's memory bounded while a burst of uploads waits its turn.
 */
const AT_ONCE = 2;

let running = 0;
const waiting: (() => void)[] = [];

/**
 * Runs `work` when fewer than {@link AT_ONCE} inspections run, in arrival order.
 * @example const inspected = await inTurn(() => inspectUpload(input));
 */
export async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
