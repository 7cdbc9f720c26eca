import { TRPCError } from '@trpc/server';

type Code = ConstructorParameters<typeof TRPCError>[0]['code'];

/**
 * Why a request was refused, in a word a client can act on (`origin_not_allowed`,
 * `identity_required`, `rate_limited`…): the error formatter puts it in `data.reason`.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly reason: string,
    /** when trying again makes sense */
    readonly retryAfterMs?: number,
  ) {
    super(reason);
  }
}

/**
 * A TRPCError with a stable machine-readable reason beside its human message.
 *
 * @example throw refuse('FORBIDDEN', 'origin_not_allowed', 'This origin may not use this site.');
 */
export function refuse(code: Code, reason: string, message: string, opts: { retryAfterMs?: number } = {}): TRPCError {
  return new TRPCError({ code, message, cause: new Refusal(reason, opts.retryAfterMs) });
}

/** The reason of a refusal, or null for any other error. */
export const refusalOf = (error: TRPCError): Refusal | null => (error.cause instanceof Refusal ? error.cause : null);
