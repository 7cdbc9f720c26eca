import { randomUUID } from 'node:crypto';
import type { Redis } from '../../redis/client.ts';
import { runScript } from '../../redis/run-script.ts';
import { EXTEND_LOCK, RELEASE_LOCK } from '../../redis/scripts.ts';

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
    const n = await runScript(this.redis, EXTEND_LOCK, { keys: [this.key], arguments: [this.token, String(this.ttlMs)] });
    return n === 1;
  }

  async release(): Promise<void> {
    await runScript(this.redis, RELEASE_LOCK, { keys: [this.key], arguments: [this.token] });
  }
}
