import type { ServerResponse } from 'node:http';
import type { TRPCError } from '@trpc/server';
import { refuse } from '../trpc/refusal.ts';
import type { OverLimit } from './limits.ts';

/**
 * The error for a request over a limit: HTTP 429 `TOO_MANY_REQUESTS` with a `Retry-After`
 * header (whole seconds, rounded up) and, in the error data, `reason` and `retryAfterMs`
 * (exact) for clients that cannot read headers (a cross-origin widget). An event stream
 * always answers 200, tRPC sending its errors inside the stream: it gets the data only.
 * @example if (over) throw tooManyRequests(ctx, over)
 */
export function tooManyRequests(ctx: { res?: ServerResponse }, over: OverLimit): TRPCError {
  const seconds = Math.max(1, Math.ceil(over.retryAfterMs / 1000));
  if (ctx.res && !ctx.res.headersSent) ctx.res.setHeader('Retry-After', String(seconds));
  return refuse('TOO_MANY_REQUESTS', over.reason, `Too many requests. Try again in ${seconds} s.`, { retryAfterMs: over.retryAfterMs });
}
