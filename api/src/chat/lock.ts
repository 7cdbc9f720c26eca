import { randomUUID } from 'node:crypto';
import type { Redis } from '../redis/client.ts';

// Compare-and-delete / compare-and-extend: only the holder of the token may touch the lock.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * A per-conversation Redis lock (SET NX PX with a random token). It keeps two runs of one
 * conversation from overlapping in the normal case; correctness when it fails (a paused
 * worker whose lease ran out) rests on the run's fencing number, not on this lock.
 */
export class ConversationLock {
  private constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly token: string,
    private readonly ttlMs: number,
  ) {}

  /** Returns the lock, or null when another worker holds it. */
  static async acquire(redis: Redis, key: string, ttlMs: number): Promise<ConversationLock | null> {
    const token = randomUUID();
    const ok = await redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return ok === 'OK' ? new ConversationLock(redis, key, token, ttlMs) : null;
  }

  /** Extends the lease; false means the lock was lost and the run must stop. */
  async extend(): Promise<boolean> {
    const n = await this.redis.eval(EXTEND, { keys: [this.key], arguments: [this.token, String(this.ttlMs)] });
    return n === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, { keys: [this.key], arguments: [this.token] });
  }
}
