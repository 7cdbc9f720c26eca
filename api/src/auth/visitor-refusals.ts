import { type Refusal, refuse } from '../errors/refusal.ts';

/**
 * A visitor token that is forged, expired, or names a visitor deleted since it was signed: the
 * widget starts a new session on this reason (widget/src/state/trpc-api.ts).
 */
export function visitorTokenInvalid(): Refusal {
  return refuse('unauthorized', 'visitor_token_invalid', 'A valid visitor token is required. Call session.start first.');
}

/**
 * A stream ticket that is forged or expired, or names a visitor deleted since (their open
 * streams end with it too): the widget fetches a new ticket, and starts a new session if its
 * token is refused as well.
 */
export function streamTicketInvalid(message = 'A valid stream ticket is required. Get one with events.ticket.'): Refusal {
  return refuse('unauthorized', 'stream_ticket_invalid', message);
}
