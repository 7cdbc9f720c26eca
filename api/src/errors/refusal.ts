/**
 * What kind of refusal: the domain's own words, with no transport in them. The tRPC layer
 * answers each with its code (api/src/trpc/refusal.ts: `forbidden` → FORBIDDEN, 403), the
 * plain HTTP routes with a status (api/src/http/errors.ts).
 */
export type RefusalKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests';

/**
 * Domain code refusing a request: a kind, a stable machine-readable reason a client can act on
 * (`origin_not_allowed`, `identity_required`, `rate_limited`…; null where the kind says it all,
 * as `conversation not found`), and a message for people. Clients read the reason in
 * `data.reason`, so its strings never change.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    readonly reason: string | null,
    message: string,
    /** when trying again makes sense (answered as `data.retryAfterMs` and `Retry-After`) */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * A refusal, to throw.
 * @example throw refuse('forbidden', 'origin_not_allowed', 'This origin may not use this site.');
 */
export function refuse(kind: RefusalKind, reason: string | null, message: string, opts: { retryAfterMs?: number } = {}): Refusal {
  return new Refusal(kind, reason, message, opts.retryAfterMs);
}

/**
 * For ids that do not exist or belong to someone else: the two are indistinguishable on purpose.
 * @example if (!conversation) throw notFound('conversation'); // 404 'conversation not found'
 */
export const notFound = (what: string): Refusal => refuse('not_found', null, `${what} not found`);

/** A wait in whole seconds, rounded up, at least 1: what `Retry-After` and the messages say. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
