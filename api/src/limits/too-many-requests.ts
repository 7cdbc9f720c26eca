import { type Refusal, refuse, retryAfterSeconds } from '../errors/refusal.ts';
import type { OverLimit } from './limits.ts';

/**
 * The refusal of a request over a limit: `too_many_requests` with the limit's reason and, for
 * clients, when to try again. The transport answers it as HTTP 429 with `Retry-After` (whole
 * seconds, rounded up) and `data.retryAfterMs` (exact) for clients that cannot read headers (a
 * cross-origin widget); an event stream, already answered 200, gets the data only.
 * @example if (over) throw tooManyRequests(over)
 */
export function tooManyRequests(over: OverLimit): Refusal {
  return refuse('too_many_requests', over.reason, `Too many requests. Try again in ${retryAfterSeconds(over.retryAfterMs)} s.`, {
    retryAfterMs: over.retryAfterMs,
  });
}
