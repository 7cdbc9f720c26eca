import type { TRPCError } from '@trpc/server';
import { refuse } from './refusal.ts';

/**
 * A visitor token that is forged, expired, or names a visitor deleted since it was signed: the
 * widget starts a new session on this reason (widget/src/state/trpc-api.ts).
 */
export function visitorTokenInvalid(): TRPCError {
  return refuse('UNAUTHORIZED', 'visitor_token_invalid', 'A valid visitor token is required. Call session.start first.');
}
