import { randomUUID } from 'node:crypto';
import { isInProcess, type Redis } from '../redis/client.ts';
import { runScript } from '../redis/run-script.ts';

/** How long a slot lives without a heartbeat: a process that dies leaks its streams' slots for at most this. */
export const SLOT_TTL_MS = 60_000;
/** Slots of live streams are renewed this often (a third of the TTL, like run leases). */
const HEARTBEAT_MS = SLOT_TTL_MS / 3;

/**
 * Takes one slot in every set or none. Each set is a sorted set of slot ids scored by expiry
 * (Redis TIME, one clock for all processes); expired members are dropped first, so a crashed
 * process's streams stop counting once their TTL passes. Returns 0, or the 1-based index of
 * the first full set.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ttl, ARGV[2])
  redis.call('PEXPIRE', key, ttl)
end
return 0`;

const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[1]), ARGV[2])
  redis.call('PEXPIRE', key, ARGV[1])
end
return 0`;

/** A set of slots and how many it holds at most. */
export interface SlotLimit {
  key: string;
  max: number;
}

/** A slot held by one open stream; `release()` is idempotent. */
export interface Slot {
  release(): Promise<void>;
}

/**
 * Concurrent-connection limits (event streams per visitor and per address), which fixed
 * windows cannot express: a stream holds a slot from connect to disconnect. Slots expire
 * unless renewed, so a process that crashes mid-stream does not leak counts forever, only
 * for `SLOT_TTL_MS`. While Redis is not ready, slots are counted in this process's memory
 * instead (the same insurance the window limiters have).
 * @example const slot = await slots.acquire([{ key, max: 5 }]); if (typeof slot === 'number') refuse(); … slot.release()
 */
export class StreamSlots {
  /** the insurance: set key → slot id → expiry */
  private readonly local = new Map<string, Map<string, number>>();

  constructor(private readonly redis: Redis) {}

  /** Takes a slot in every set, or returns the index of the first full one (nothing taken). */
  async acquire(limits: readonly SlotLimit[]): Promise<Slot | number> {
    const id = randomUUID();
    const keys = limits.map((l) => l.key);
    const full = await this.inRedis(() =>
      runScript(this.redis, ACQUIRE, { keys, arguments: [String(SLOT_TTL_MS), id, ...limits.map((l) => String(l.max))] }),
    ).then((r) => (r === null ? this.acquireLocally(limits, id) : Number(r) - 1));
    if (full >= 0) return full;
    return this.held(keys, id);
  }

  private held(keys: string[], id: string): Slot {
    const heartbeat = setInterval(() => {
      void this.inRedis(() => runScript(this.redis, RENEW, { keys, arguments: [String(SLOT_TTL_MS), id] }));
      for (const key of keys) this.local.get(key)?.set(id, Date.now() + SLOT_TTL_MS);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(heartbeat);
        for (const key of keys) {
          const set = this.local.get(key);
          if (set?.delete(id) && set.size === 0) this.local.delete(key);
        }
        await this.inRedis(() => Promise.all(keys.map((key) => this.redis.zRem(key, id))));
      },
    };
  }

  private acquireLocally(limits: readonly SlotLimit[], id: string): number {
    const now = Date.now();
    const sets = limits.map((l) => {
      const set = this.local.get(l.key) ?? new Map<string, number>();
      for (const [slot, until] of set) if (until <= now) set.delete(slot);
      return set;
    });
    const full = sets.findIndex((set, i) => set.size >= limits[i]!.max);
    if (full >= 0) return full;
    sets.forEach((set, i) => this.local.set(limits[i]!.key, set.set(id, now + SLOT_TTL_MS)));
    return -1;
  }

  /** Runs a Redis call when Redis is ready; null when it is not or the call failed (the caller falls back). */
  private async inRedis<T>(call: () => Promise<T>): Promise<T | null> {
    // in process (the embedded mode's one process) the local count is the whole count
    if (!this.redis.isReady || isInProcess(this.redis)) return null;
    try {
      return await call();
    } catch {
      return null;
    }
  }
}
