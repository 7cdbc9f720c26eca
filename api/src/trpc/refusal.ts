import type { ServerResponse } from 'node:http';
import { getTRPCErrorFromUnknown, TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { Refusal, type RefusalKind, retryAfterSeconds } from '../errors/refusal.ts';

/** tRPC's code for each kind of refusal; tRPC derives the HTTP status from it (403, 404, 409, 429…). */
const CODES: Readonly<Record<RefusalKind, TRPC_ERROR_CODE_KEY>> = {
  bad_request: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  too_many_requests: 'TOO_MANY_REQUESTS',
};

/**
 * The one place a domain `Refusal` becomes tRPC's error: the kind's code, the refusal's message,
 * and the refusal kept as the cause, where the error formatter reads `data.reason` and
 * `data.retryAfterMs`. A refusal that says when to retry puts `Retry-After` (whole seconds) on
 * `res` while its headers are not sent yet (an event stream's are: it gets the data only).
 * Anything else comes back as it was, so an abort stays an abort.
 *
 * Called by the base procedure's middleware (trpc.ts: every procedure, its subscriptions'
 * iteration included) and by the lean routes (http/mutation-route.ts, http/event-stream-route.ts),
 * which call the rules themselves.
 * @example catch (err) { throw refusalAsTRPCError(err, ctx.res) }
 */
export function refusalAsTRPCError(error: unknown, res?: ServerResponse): unknown {
  // tRPC wraps what a middleware throws as INTERNAL_SERVER_ERROR, the original as its cause
  const refusal =
    error instanceof Refusal
      ? error
      : error instanceof TRPCError && error.code === 'INTERNAL_SERVER_ERROR' && error.cause instanceof Refusal
        ? error.cause
        : null;
  if (!refusal) return error;
  if (refusal.retryAfterMs !== undefined && res && !res.headersSent)
    res.setHeader('Retry-After', String(retryAfterSeconds(refusal.retryAfterMs)));
  return new TRPCError({ code: CODES[refusal.kind], message: refusal.message, cause: refusal });
}

/** {@link refusalAsTRPCError}, and any other error as tRPC would answer it (an unknown one is INTERNAL_SERVER_ERROR). */
export const trpcErrorOf = (error: unknown, res?: ServerResponse): TRPCError => getTRPCErrorFromUnknown(refusalAsTRPCError(error, res));

/** The refusal behind a tRPC error, or null for any other error: the error formatter answers its reason. */
export const refusalOf = (error: TRPCError): Refusal | null =>
  error.code !== 'INTERNAL_SERVER_ERROR' && error.cause instanceof Refusal ? error.cause : null;
