import { type Refusal, refuse } from '../errors/refusal.ts';

/**
 * A visitor token that is forged, expired, or names a visitor deleted since it was signed: the
 * widget starts a new session on this reason (widget/src/state/trpc-api.ts).
 */
export function visitorTokenInvalid(): Refusal {
  return refuse('unauthorized', 'visitor_token_invalid', 'A valid visitor token is required. Call session.start first.');
}
