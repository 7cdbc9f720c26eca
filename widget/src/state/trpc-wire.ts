/**
 * The widget's (and the console's) client for tRPC's wire protocol, without the tRPC client: it
 * was 28 KB of the first chunk's 59 KB (minified) for five calls and one stream, and the first
 * chunk loads on every page of every site. The server is still plain tRPC; the shapes are
 * checked against `AppRouter` in `trpc-api.ts`. The protocol itself (URLs, answers, the
 * stream's events) is api/src/shared/trpc-wire.ts, shared with the server's lean routes and
 * checked against tRPC's own handler by test/api/trpc-wire-contract.test.ts; this file is the
 * transport: fetch, EventSource, reconnects.
 */
import {
  errorOf,
  NetworkError,
  procedureUrl,
  quietLimitOf,
  SSE_CONNECTED,
  SSE_ERROR,
  SSE_PING,
  SSE_RETURN,
  ServerError,
} from '../../../api/src/shared/trpc-wire.ts';

// one query or mutation (the browser's `fetch`), its errors, and what the server says of an error
// (tRPC's `data.code`, `data.httpStatus`, Heed's `reason`, `retryAfterMs`): the shared wire's
export { callProcedure, NetworkError, ServerError } from '../../../api/src/shared/trpc-wire.ts';
export type { WireErrorData as ErrorData } from '../../../api/src/shared/trpc-wire.ts';

export interface StreamHandlers {
  /** a data message; `id` for tracked (durable) ones */
  onData(data: unknown, id: string | undefined): void;
  onState(state: 'connecting' | 'connected'): void;
  /** the stream ended for good (a refusal that a new connection would not change) */
  onError(error: unknown): void;
}

/** Longest wait between two connection attempts. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Refusals a new connection (with a new ticket, a bit later) can get past: an expired ticket, too
 * many requests (429) and the server's own failures (500, 502, 503, 504: INTERNAL_SERVER_ERROR,
 * BAD_GATEWAY, SERVICE_UNAVAILABLE, GATEWAY_TIMEOUT), by the status every error's data carries.
 */
const retryable = (e: ServerError) =>
  e.data.reason === 'stream_ticket_invalid' || [429, 500, 502, 503, 504].includes(e.data.httpStatus ?? 0);

/**
 * A subscription that reconnects by itself: every connection gets fresh `params` (a new
 * stream ticket) and resumes after the last tracked id it received, so a drop, a server
 * restart or an expired ticket loses and repeats nothing. The browser's own EventSource
 * retry is not used, since it would replay the old URL (and its expired ticket). Returns
 * the unsubscribe.
 */
export function openStream(
  base: string,
  path: string,
  input: (lastEventId: string | null) => unknown,
  params: () => Promise<Record<string, string>>,
  h: StreamHandlers,
  lastEventId: string | null = null,
): () => void {
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempts = 0;
  let stopped = false;

  const close = () => {
    clearTimeout(timer);
    source?.close();
    source = null;
  };
  const again = () => {
    close();
    if (stopped) return;
    h.onState('connecting');
    timer = setTimeout(open, Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempts++));
  };
  const fail = (err: unknown) => {
    if (err instanceof NetworkError || (err instanceof ServerError && retryable(err))) return again();
    close();
    stopped = true;
    h.onError(err);
  };

  async function open() {
    let p: Record<string, string>;
    try {
      p = await params();
    } catch (err) {
      return fail(err);
    }
    if (stopped) return;
    const es = (source = new EventSource(procedureUrl(base, path, input(lastEventId), p)));
    let quietMs = 0;
    // a stream that goes quiet longer than the server's pings allow is dead: open another
    const alive = () => {
      clearTimeout(timer);
      if (quietMs) timer = setTimeout(again, quietMs);
    };
    es.addEventListener(SSE_CONNECTED, (e) => {
      attempts = 0;
      quietMs = quietLimitOf(e as MessageEvent);
      h.onState('connected');
      alive();
    });
    es.addEventListener(SSE_PING, alive);
    es.addEventListener('message', (e) => {
      alive();
      const id = e.lastEventId || undefined;
      if (id) lastEventId = id;
      h.onData(JSON.parse(e.data), id);
    });
    es.addEventListener(SSE_ERROR, (e) => fail(errorOf(JSON.parse((e as MessageEvent).data))));
    es.addEventListener(SSE_RETURN, again);
    es.onerror = again;
  }

  void open();
  return () => {
    stopped = true;
    close();
  };
}
