import type { IncomingHttpHeaders } from 'node:http';

/** The `Vary` tRPC's answers carry (it replaces CORS's `Vary: Origin`); the lean routes answer it too. */
export const TRPC_VARY = 'trpc-accept, accept';

/**
 * The client asked for tRPC's streamed JSON lines (`trpc-accept`, or `application/jsonl` in
 * `Accept`): the lean routes (event-stream-route.ts, mutation-route.ts) leave such a request to
 * tRPC, whose answer it is.
 */
export function asksForJsonl(headers: IncomingHttpHeaders): boolean {
  return headers['trpc-accept'] !== undefined || (headers.accept?.split(',').some((t) => t.trim() === 'application/jsonl') ?? false);
}
