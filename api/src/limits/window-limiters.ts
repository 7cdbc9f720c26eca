import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { isInProcess, type Redis } from '../redis/client.ts';
import type { WindowRule } from './site-limits.ts';

/** What a limiter says: go ahead, or come back in `retryAfterMs`. */
export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Fixed-window counters in Redis (rate-limiter-flexible's `RateLimiterRedis`, one atomic
 * Lua `SET NX EX` + `INCRBY` per call), shared by every process of the deployment. When Redis
 * is not ready the call goes at once (`rejectIfRedisNotReady`, no waiting in node-redis's
 * offline queue) to an in-memory insurance limiter with the same rule: per process, so a
 * deployment of N processes allows up to N times the limit while Redis is away, and never
 * fails open or closed.
 *
 * One limiter per (name, rule), made on first use: sites with their own rules get their own.
 * Keys are `<REDIS_PREFIX>limit:<name>:<key>`, so a changed rule keeps counting the same key.
 * @example const verdict = await limiters.consume('sendBurst', { points: 8, seconds: 20 }, visitorId)
 */
export class WindowLimiters {
  private readonly limiters = new Map<string, FixedWindow>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Counts one action (or `points` of them) for `key`; refused when it is over the rule (the refused action counts too). */
  async consume(name: string, rule: WindowRule, key: string, points = 1): Promise<Verdict> {
    try {
      await this.limiter(name, rule).consume(key, points);
      return { ok: true };
    } catch (res) {
      if (res instanceof RateLimiterRes) return { ok: false, retryAfterMs: Math.max(1, res.msBeforeNext) };
      throw res;
    }
  }

  /** Gives back an action that was counted but did not happen (e.g. a claim that found nothing). */
  async refund(name: string, rule: WindowRule, key: string): Promise<void> {
    await this.limiter(name, rule).reward(key);
  }

  private limiter(name: string, rule: WindowRule): FixedWindow {
    const id = `${name}:${rule.points}/${rule.seconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = fixedWindow(this.redis, { keyPrefix: `${this.prefix}limit:${name}`, points: rule.points, duration: rule.seconds });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

export type FixedWindow = RateLimiterRedis | RateLimiterMemory;

/**
 * One fixed-window limiter: in Redis with an in-memory insurance limiter (see above), or,
 * in the embedded mode's one process (in-process coordination), in memory alone — exact
 * there, and every operation (`delete` included) acts on the counts that decide.
 */
export function fixedWindow(redis: Redis, opts: { keyPrefix: string; points: number; duration: number }): FixedWindow {
  if (isInProcess(redis)) return new RateLimiterMemory(opts);
  return new RateLimiterRedis({
    ...opts,
    storeClient: redis,
    useRedisPackage: true,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(opts),
  });
}
