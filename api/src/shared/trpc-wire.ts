/**
 * tRPC's wire protocol, the one copy Heed keeps: what the widget's and the console's client
 * (widget/src/state/trpc-wire.ts) send and read, and what the two lean server routes
 * (api/src/http/mutation-route.ts, event-stream-route.ts) read and write in place of tRPC's
 * own handler. Dependency-free (only `callProcedure` touches the platform, its `fetch`), so the
 * widget bundles what it uses of it and nothing of the server. test/api/trpc-wire-contract.test.ts
 * serves real procedures through tRPC's own handler and checks every piece here against what
 * tRPC writes and parses.
 *
 * - query: `GET {base}/{path}?input=<json>`; mutation: `POST {base}/{path}` with a JSON body;
 *   the answer is `{ result: { data } }` or `{ error: { message, code, data } }`, `code` being
 *   tRPC's JSON-RPC 2.0 number and `data.code` its name (`TOO_MANY_REQUESTS`), with
 *   `data.httpStatus`, the answer's status.
 * - subscription: Server-Sent Events on `GET {base}/{path}?input=<json>&connectionParams=<json>`:
 *   `connected` (the client options), `ping`, data messages (tracked ones with `id:`),
 *   `restore-id`, `serialized-error` (an error shape) and `return`.
 * - no data transformer: the data is plain JSON both ways.
 */

/** The `@trpc/server` version this module was last checked against (test/api/trpc-wire-contract.test.ts). */
export const TRPC_WIRE_VERIFIED = '11.25.2';

/** Each tRPC error code: its JSON-RPC 2.0 number (an error shape's `code`) and its HTTP status. */
export const TRPC_ERROR_CODES = {
  PARSE_ERROR: [-32700, 400],
  BAD_REQUEST: [-32600, 400],
  INTERNAL_SERVER_ERROR: [-32603, 500],
  NOT_IMPLEMENTED: [-32603, 501],
  BAD_GATEWAY: [-32603, 502],
  SERVICE_UNAVAILABLE: [-32603, 503],
  GATEWAY_TIMEOUT: [-32603, 504],
  UNAUTHORIZED: [-32001, 401],
  PAYMENT_REQUIRED: [-32002, 402],
  FORBIDDEN: [-32003, 403],
  NOT_FOUND: [-32004, 404],
  METHOD_NOT_SUPPORTED: [-32005, 405],
  TIMEOUT: [-32008, 408],
  CONFLICT: [-32009, 409],
  PRECONDITION_FAILED: [-32012, 412],
  PAYLOAD_TOO_LARGE: [-32013, 413],
  UNSUPPORTED_MEDIA_TYPE: [-32015, 415],
  UNPROCESSABLE_CONTENT: [-32022, 422],
  PRECONDITION_REQUIRED: [-32028, 428],
  TOO_MANY_REQUESTS: [-32029, 429],
  CLIENT_CLOSED_REQUEST: [-32099, 499],
} as const satisfies Record<string, readonly [jsonRpc: number, httpStatus: number]>;
export type TrpcErrorCode = keyof typeof TRPC_ERROR_CODES;

/** An error's `data`: tRPC's `code` and `httpStatus`, and what Heed's error formatter adds (`reason`, `retryAfterMs`, field errors). */
export interface WireErrorData {
  code?: string;
  httpStatus?: number;
  path?: string;
  reason?: string | null;
  retryAfterMs?: number | null;
  fieldErrors?: Record<string, string[] | undefined> | null;
  formErrors?: string[] | null;
}

/** An error shape: the `error` of an answer, the data of a `serialized-error` event. */
export interface WireError {
  message?: string;
  code?: number;
  data?: WireErrorData;
}

/** A query's or a mutation's answer. */
export interface WireAnswer {
  result?: { data?: unknown };
  error?: WireError;
}

/** The request never got an answer from the server (offline, DNS, CORS, a proxy's error page). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** The server answered with an error (tRPC's `message` and `data`). */
export class ServerError extends Error {
  override name = 'ServerError';
  constructor(
    message: string,
    readonly data: WireErrorData,
  ) {
    super(message);
  }
}

/** The `Vary` tRPC answers on every call (it replaces CORS's `Vary: Origin`). */
export const TRPC_VARY = 'trpc-accept, accept';

// ---- requests

/**
 * A procedure's URL: a query's or a subscription's `input`, and a subscription's
 * `connectionParams` (EventSource cannot send headers), as JSON in the query string.
 * @example procedureUrl('https://chat.example/trpc', 'conversation.get', { conversationId }) // '…/trpc/conversation.get?input=%7B…'
 */
export function procedureUrl(base: string, path: string, input?: unknown, connectionParams?: Record<string, string>): string {
  const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  const query = input === undefined ? '' : `?input=${json(input)}`;
  return `${base}/${path}${query}${connectionParams ? `${query ? '&' : '?'}connectionParams=${json(connectionParams)}` : ''}`;
}

/**
 * One query (`GET`, the input in the URL) or mutation (`POST`, the input as the JSON body);
 * resolves with the procedure's output, rejects with a {@link ServerError} for the server's
 * error, a {@link NetworkError} when no answer came. `fetcher` is the browser's `fetch` but in tests.
 */
export async function callProcedure(
  base: string,
  path: string,
  kind: 'query' | 'mutation',
  input: unknown,
  headers: Record<string, string>,
  fetcher: typeof fetch = fetch,
): Promise<unknown> {
  const query = kind === 'query';
  let answer: WireAnswer;
  try {
    const init: RequestInit = query
      ? { headers }
      : {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: input === undefined ? undefined : JSON.stringify(input),
        };
    answer = await (await fetcher(query ? procedureUrl(base, path, input) : `${base}/${path}`, init)).json();
  } catch (err) {
    throw new NetworkError(String(err));
  }
  if (answer.error) throw errorOf(answer.error);
  return answer.result?.data;
}

/**
 * The client asked for tRPC's streamed JSON lines (`trpc-accept`, or `application/jsonl` in
 * `Accept`), which only tRPC's own handler writes.
 */
export function asksForJsonl(headers: Record<string, string | string[] | undefined>): boolean {
  const accept = headers.accept;
  return (
    headers['trpc-accept'] !== undefined || (typeof accept === 'string' && accept.split(',').some((t) => t.trim() === 'application/jsonl'))
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Connection params as tRPC reads them: JSON, an object of strings or null.
 * @throws on anything else (tRPC answers it PARSE_ERROR)
 */
export function readConnectionParams(raw: string): Record<string, string> | null {
  const parsed: unknown = JSON.parse(raw);
  if (parsed === null) return null;
  if (!isObject(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) throw new Error('Invalid connection params shape');
  return parsed as Record<string, string>;
}

/** A subscription request as tRPC reads it. */
export interface SubscriptionRequest {
  /** the `input` query param, parsed, with a reconnect's Last-Event-ID merged in as `lastEventId` */
  input: unknown;
  connectionParams: Record<string, string> | null;
  /** the reconnect's Last-Event-ID (header, or `lastEventId` / `Last-Event-Id` param), where an SSE id may hold it */
  lastEventId: string | null;
}

/**
 * What tRPC reads from a subscription's request target (`/trpc/path?…`) and its `Last-Event-ID`
 * header; null for a target it would read otherwise or refuse (a batch, a fragment, unparsable
 * input or connection params), so a lean route can leave it to tRPC.
 */
export function readSubscriptionRequest(target: string, lastEventIdHeader: string | undefined): SubscriptionRequest | null {
  if (target.includes('#')) return null;
  const q = target.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  if (params.get('batch') === '1') return null;
  let input: unknown;
  let connectionParams: Record<string, string> | null;
  try {
    const rawParams = params.get('connectionParams');
    connectionParams = rawParams === null ? null : readConnectionParams(rawParams);
    const rawInput = params.get('input');
    input = rawInput ? JSON.parse(rawInput) : undefined;
  } catch {
    return null;
  }
  const resumeId = lastEventIdHeader ?? params.get('lastEventId') ?? params.get('Last-Event-Id');
  if (resumeId) input = isObject(input) ? { ...input, lastEventId: resumeId } : (input ?? { lastEventId: resumeId });
  return { input, connectionParams, lastEventId: resumeId && !/[\0\n\r]/.test(resumeId) ? resumeId : null };
}

// ---- answers

/** A successful call's answer. */
export const resultAnswer = (data: unknown): WireAnswer => ({ result: { data } });

/** A failed call's answer, from its error shape (tRPC's, through the error formatter). */
export const errorAnswer = (shape: WireError): WireAnswer => ({ error: shape });

/** The HTTP status of an answer, as tRPC sets it: the error's `data.httpStatus`, else its code's status. */
export function statusOf(answer: WireAnswer): number {
  const error = answer.error;
  if (!error) return 200;
  const data = error.data;
  if (typeof data?.httpStatus === 'number') return data.httpStatus;
  return TRPC_ERROR_CODES[data?.code as TrpcErrorCode]?.[1] ?? 500;
}

/** An error shape as a {@link ServerError}. */
export const errorOf = (shape: WireError): ServerError => new ServerError(shape.message ?? 'error', shape.data ?? {});

// ---- Server-Sent Events

/** The headers of a subscription's answer (status 200), in the order tRPC's `Headers` gives them (sorted). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  vary: TRPC_VARY,
  'x-accel-buffering': 'no',
};

/** The events a subscription's stream names; its data messages have none (`message`). */
export const SSE_CONNECTED = 'connected';
export const SSE_PING = 'ping';
export const SSE_ERROR = 'serialized-error';
export const SSE_RETURN = 'return';
export const SSE_RESTORE_ID = 'restore-id';

/** One event as tRPC frames it: each field on its line, then a blank line, then one more newline. */
const frame = (event: string, data: string) => `event: ${event}\ndata: ${data}\n\n\n`;

/** The stream's first event: the client options (`reconnectAfterInactivityMs`). */
export const connectedFrame = (client: object): string => frame(SSE_CONNECTED, JSON.stringify(client));
/** Written after the server's ping interval of quiet (a literal, so a bundle that does not write it drops it). */
export const PING_FRAME = 'event: ping\ndata: \n\n\n';
/** The stream ended on the server's side: the client opens another. */
export const RETURN_FRAME = 'event: return\ndata: \n\n\n';
/** The stream ends with this error (its shape, as the error formatter made it). */
export const errorFrame = (shape: WireError): string => frame(SSE_ERROR, JSON.stringify(shape));

/**
 * One data message: a tracked one with its `id`; an untracked one after a tracked one blanks the
 * EventSource's last id, so `restore-id` follows with the last id sent (`lastId`).
 */
export function dataFrame(data: unknown, id: string | null, lastId: string | null): string {
  const json = JSON.stringify(data);
  if (id !== null) return `data: ${json}\nid: ${id}\n\n\n`;
  if (lastId === null) return `data: ${json}\n\n\n`;
  return `data: ${json}\nid: \n\n\nevent: ${SSE_RESTORE_ID}\ndata: \nid: ${lastId}\n\n\n`;
}

/** How long a stream may stay quiet before the client should open another (read from the `connected` event); 0: no limit. */
export const quietLimitOf = (connected: { data: string }): number => Number(JSON.parse(connected.data).reconnectAfterInactivityMs) || 0;
