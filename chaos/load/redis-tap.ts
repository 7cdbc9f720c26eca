import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** A reply delta or snapshot as it went over Redis. */
export interface Tapped {
  runId: string;
  conversationId: string;
  type: string;
  /** when the tap received it (the machine's clock) */
  at: number;
  /** the publisher's clock when it relayed it (`BusMessage.at`), right after its fence-by-time check */
  publishedAt: number | null;
}

const tappedShape = z.object({
  runId: z.string(),
  conversationId: z.string(),
  type: z.string(),
  at: z.number(),
  publishedAt: z.number().nullable(),
});
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Listens to every visitor channel of the run on the suite's Redis and records each live reply
 * event at its source: what workers published, whatever the API processes then did with it.
 * It runs in its own process at a raised priority (`nice -n -10`), so that on a loaded machine
 * its receive times stay close to Redis's (the suite's own event loop lags by up to seconds).
 */
export async function startRedisTap(url: string, prefix: string): Promise<{ tapped: Tapped[]; stop: () => Promise<void> }> {
  const tapped: Tapped[] = [];
  const child = spawn('nice', ['-n', '-10', process.execPath, '--import', 'tsx', 'chaos/load/redis-tap-main.ts', url, prefix], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  let ready: () => void = () => {};
  const subscribed = new Promise<void>((resolve) => (ready = resolve));
  lines.on('line', (line) => {
    if (line === 'ready') return ready();
    const parsed = tappedShape.safeParse(JSON.parse(line));
    if (parsed.success) tapped.push(parsed.data);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await Promise.race([subscribed, exited.then(() => Promise.reject(new Error('the Redis tap exited before subscribing')))]);
  return {
    tapped,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
