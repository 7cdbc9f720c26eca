/**
 * The few pieces of tRPC's wire protocol the widget speaks, without the tRPC client: it
 * was 28 KB of the first chunk's 59 KB (minified) for five calls and one stream, and the
 * first chunk loads on every page of every site. The server is still plain tRPC; the
 * shapes are checked against `AppRouter` in `trpc-api.ts`.
 *
 * - query: `GET {base}/{path}?input=<json>`; mutation: `POST {base}/{path}` with a JSON body;
 *   the answer is `{ result: { data } }` or `{ error: { message, data } }`.
 * - subscription: an EventSource on `GET {base}/{path}?input=<json>&connectionParams=<json>`
 *   sending `connected` (with the reconnect-after-inactivity time), `ping`, data messages
 *   (tracked ones carry their id), `serialized-error` and `return`.
 */

/** What the server says about an error: tRPC's `data` (`code`, `httpStatus`) and Heed's `reason`, `retryAfterMs`. */
export interface ErrorData {
  code?: string;
  httpStatus?: number;
  reason?: string | null;
  retryAfterMs?: number | null;
}

/** The server answered with an error. */
export class ServerError extends Error {
  override name = 'ServerError';
  constructor(
    message: string,
    readonly data: ErrorData,
  ) {
    super(message);
  }
}

/** The request never got an answer from the server (offline, DNS, CORS, a proxy's error page). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

const json = encodeURIComponent;

/** One query or mutation; resolves with the procedure's output. */
export async function callProcedure(base: string, path: string, kind: 'query' | 'mutation', input: unknown, headers: Record<string, string>): Promise<unknown> {
  const query = kind === 'query' && input !== undefined ? `?input=${json(JSON.stringify(input))}` : '';
  const init: RequestInit =
    kind === 'query' ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: input === undefined ? undefined : JSON.stringify(input) };
  let body: { result?: { data?: unknown }; error?: { message?: string; data?: ErrorData } };
  try {
    body = await (await fetch(`${base}/${path}${query}`, init)).json();
  } catch (err) {
    throw new NetworkError(String(err));
  }
  if (body.error) throw new ServerError(body.error.message ?? 'error', body.error.data ?? {});
  return body.result?.data;
}

export interface StreamHandlers {
  /** a data message; `id` for tracked (durable) ones */
  onData(data: unknown, id: string | undefined): void;
  onState(state: 'connecting' | 'connected'): void;
  /** the stream ended for good (a refusal that a new connection would not change) */
  onError(error: unknown): void;
}

/** Longest wait between two connection attempts. */
const MAX_BACKOFF_MS = 30_000;

/** Refusals a new connection (with a new ticket, a bit later) can get past. */
const retryable = (e: ServerError) =>
  e.data.reason === 'stream_ticket_invalid' || ['TOO_MANY_REQUESTS', 'INTERNAL_SERVER_ERROR', 'BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT'].includes(e.data.code ?? '');

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
    const es = (source = new EventSource(`${base}/${path}?input=${json(JSON.stringify(input(lastEventId)))}&connectionParams=${json(JSON.stringify(p))}`));
    let quietMs = 0;
    // a stream that goes quiet longer than the server's pings allow is dead: open another
    const alive = () => {
      clearTimeout(timer);
      if (quietMs) timer = setTimeout(again, quietMs);
    };
    es.addEventListener('connected', (e) => {
      attempts = 0;
      quietMs = Number(JSON.parse((e as MessageEvent).data).reconnectAfterInactivityMs) || 0;
      h.onState('connected');
      alive();
    });
    es.addEventListener('ping', alive);
    es.addEventListener('message', (e) => {
      alive();
      const id = e.lastEventId || undefined;
      if (id) lastEventId = id;
      h.onData(JSON.parse(e.data), id);
    });
    es.addEventListener('serialized-error', (e) => {
      const shape = JSON.parse((e as MessageEvent).data) as { message?: string; data?: ErrorData };
      fail(new ServerError(shape.message ?? 'error', shape.data ?? {}));
    });
    es.addEventListener('return', again);
    es.onerror = again;
  }

  void open();
  return () => {
    stopped = true;
    close();
  };
}
