import { createHash } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { type FixedWindow, fixedWindow } from '../limits/window-limiters.ts';
import type { Redis } from '../redis/client.ts';

/**
 * Sign-in attempts allowed per fixed window before the next is refused: per email (a
 * guesser aiming at one operator gets 5 tries per 15 minutes, 480 a day) and per client
 * address (one address trying many emails gets 20). A successful sign-in clears its
 * email's count and gives its address its attempt back, so operators who mistype now and
 * then are never slowed. The per-email count can lock the real operator out for at most
 * one window while someone guesses: the price of not counting per (email, address) pair,
 * which a guesser with many addresses would walk around.
 */
export const SIGN_IN_LIMITS = {
  perEmail: { points: 5, seconds: 15 * 60 },
  perIp: { points: 20, seconds: 15 * 60 },
} as const;

/** Go ahead, or wait `retryAfterMs`. */
export type ThrottleVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * Counts sign-in attempts in Redis, shared by every API process (rate-limiter-flexible's
 * fixed windows, set up as in `limits/window-limiters.ts`: an in-memory insurance limiter
 * answers at once while Redis is away). Every attempt counts *before* the password is
 * checked, so a burst of parallel guesses cannot all slip in before the first failure is
 * recorded. Email keys are hashed: Redis holds no operator's address.
 */
export class SignInThrottle {
  private readonly byEmail: FixedWindow;
  private readonly byIp: FixedWindow;

  constructor(redis: Redis, prefix: string) {
    const make = (name: string, rule: { points: number; seconds: number }) =>
      fixedWindow(redis, { keyPrefix: `${prefix}limit:${name}`, points: rule.points, duration: rule.seconds });
    this.byEmail = make('signInEmail', SIGN_IN_LIMITS.perEmail);
    this.byIp = make('signInIp', SIGN_IN_LIMITS.perIp);
  }

  /** Counts one attempt; refused when the email or the address is over its window. */
  async attempt(email: string, ip: string): Promise<ThrottleVerdict> {
    const [email_, ip_] = await Promise.all([consume(this.byEmail, emailKey(email)), consume(this.byIp, ip)]);
    const waits = [email_, ip_].filter((w) => w > 0);
    return waits.length === 0 ? { ok: true } : { ok: false, retryAfterMs: Math.max(...waits) };
  }

  /** A sign-in succeeded: its email starts over, its address gets the attempt back. */
  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.byEmail.delete(emailKey(email)), this.byIp.reward(ip)]);
  }
}

const emailKey = (email: string) => createHash('sha256').update(email).digest('base64url').slice(0, 22);

/** 0 when allowed, else the milliseconds until the window ends. */
async function consume(limiter: FixedWindow, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (res) {
    if (res instanceof RateLimiterRes) return Math.max(1, res.msBeforeNext);
    throw res;
  }
}

const throttles = new WeakMap<object, SignInThrottle>();

/** The process's throttle for one set of services (made on first use). */
export function signInThrottleOf(services: { redis: Redis; config: { REDIS_PREFIX: string } }): SignInThrottle {
  let throttle = throttles.get(services);
  if (!throttle) throttles.set(services, (throttle = new SignInThrottle(services.redis, services.config.REDIS_PREFIX)));
  return throttle;
}
