import { ReplyRelay } from '../../api/src/chat/run/reply-relay.ts';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';
import { createPooledDb } from '../../api/src/db/client.ts';
import { rawSql } from '../../api/src/db/raw-sql.ts';
import { EventBus } from '../../api/src/events/event-bus.ts';
import { createRedis, keys as keysFor } from '../../api/src/redis/client.ts';
import { preciseNow, sleep } from '../stats.ts';

/**
 * The fan-out bench's publisher, a process of its own (as the reply worker is): it claims one
 * run per conversation with the worker's own `claimBatch` (so every stream sees `run.started`,
 * or the run as streaming when it connects), then relays reply deltas through the worker's
 * `ReplyRelay` (the same EVAL, channel and message) at a fixed total rate, round-robin over
 * the runs. Each delta's text is its publish time (`⟨t:…⟩`, performance.timeOrigin-based, so
 * comparable across processes on this host). Driven by the bench over IPC.
 */

type Command = { type: 'claim'; conversationIds: string[] } | { type: 'publish'; perSecond: number; durationMs: number };

const { db, pool } = createPooledDb(process.env.DATABASE_URL!, { max: 16 });
const sql = rawSql(pool);
const redis = await createRedis(process.env.REDIS_URL!, 'fanout-publisher');
const subscriber = await createRedis(process.env.REDIS_URL!, 'fanout-publisher-sub');
const keys = keysFor(process.env.REDIS_PREFIX!);
const bus = new EventBus(redis, subscriber, keys);
/** one relay per run, in the order of the conversations the bench sent */
const relays: ReplyRelay[] = [];

/** A lease far past the bench's end: no run is retired or fenced while it relays. */
const LEASE_MS = 30 * 60_000;
/** deltas are sent in ticks of this length (a timer per delta would measure the timer) */
const TICK_MS = 5;

async function claim(conversationIds: string[]): Promise<number> {
  let next = 0;
  const claimed: (ReplyRelay | null)[] = new Array(conversationIds.length).fill(null);
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < conversationIds.length) {
        const i = next++;
        const batch = await claimBatch(
          { db, sql, bus },
          { conversationId: conversationIds[i]!, workerId: 'fanout-bench', leaseMs: LEASE_MS },
        );
        if (batch) claimed[i] = new ReplyRelay(redis, keys, batch);
      }
    }),
  );
  relays.push(...claimed.filter((r): r is ReplyRelay => r !== null));
  return relays.length;
}

/** Relays `perSecond` deltas a second for `durationMs`; returns how many each run got. */
async function publish(
  perSecond: number,
  durationMs: number,
): Promise<{ perRun: number[]; published: number; failed: number; firstError: string | null; behindMs: number }> {
  const perRun = new Array<number>(relays.length).fill(0);
  let sent = 0;
  let failed = 0;
  let firstError: string | null = null;
  let behindMs = 0;
  const pending = new Set<Promise<void>>();
  // each run relays its next delta once its previous one is through, as the worker's reply loop
  // awaits each before it reads the next chunk: a run's deltas never race, and a starved publisher
  // queues them here rather than as thousands of commands timing out in its Redis client
  const previous: Promise<void>[] = relays.map(() => Promise.resolve());
  const start = preciseNow();
  for (let due = 0; ; ) {
    const elapsed = preciseNow() - start;
    if (elapsed >= durationMs) break;
    // catch up to the schedule: a late tick sends what it owes (lateness recorded)
    due = Math.floor((elapsed / 1000) * perSecond);
    if (due - sent > perSecond / 100) behindMs = Math.max(behindMs, ((due - sent) / perSecond) * 1000);
    for (; sent < due; sent++) {
      const r = sent % relays.length;
      perRun[r]!++;
      const stamp = `⟨t:${preciseNow().toFixed(3)}⟩ `;
      const p = previous[r]!.then(() => relays[r]!.delta(stamp)).catch((err: unknown) => {
        failed++;
        perRun[r]!--;
        firstError ??= err instanceof Error ? `${err.name}: ${err.message} ${err.stack?.split('\n')[1]?.trim() ?? ''}` : String(err);
      });
      previous[r] = p;
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
    await sleep(TICK_MS);
  }
  await Promise.all(pending);
  return { perRun, published: sent - failed, failed, firstError, behindMs: Math.round(behindMs) };
}

process.on('message', (command: Command) => {
  const run =
    command.type === 'claim'
      ? claim(command.conversationIds).then((runs) => ({ type: 'claimed', runs }))
      : publish(command.perSecond, command.durationMs).then((r) => ({ type: 'published', ...r }));
  run.then(
    (answer) => process.send!(answer),
    (err: unknown) => process.send!({ type: 'error', message: err instanceof Error ? err.stack : String(err) }),
  );
});
process.send!({ type: 'ready' });
process.once('SIGTERM', () => void Promise.allSettled([db.$disconnect(), redis.quit(), subscriber.quit()]).then(() => process.exit(0)));
