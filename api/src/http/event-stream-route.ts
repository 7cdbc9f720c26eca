import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getTRPCErrorShape, TRPCError } from '@trpc/server';
import type { VisitorClaims } from '../auth/visitor-token.ts';
import { openStreamHold, streamedEvent } from '../events/stream-hold.ts';
import { streamVisitorEvents } from '../events/visitor-stream.ts';
import {
  asksForJsonl,
  connectedFrame,
  dataFrame,
  errorFrame,
  PING_FRAME,
  readSubscriptionRequest,
  RETURN_FRAME,
  SSE_HEADERS,
} from '../shared/trpc-wire.ts';
import { trpcErrorOf } from '../trpc/refusal.ts';
import { subscribeInput } from '../trpc/routers/events.ts';
import { streamVisitorOf, trpcConfig, type CreateContext } from '../trpc/trpc.ts';

/** The procedure this route serves, as tRPC names it in error shapes. */
const PATH = 'events.subscribe';

export interface EventStreamOptions {
  createContext: CreateContext;
  /** serves a request this route leaves to tRPC (a batch, JSONL, unparsable input or connection params) */
  fallback: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** tRPC's `onError`, for errors the stream reports (a refusal before it, a failure inside it) */
  onError: (error: TRPCError, request: FastifyRequest) => void;
}

/**
 * `GET /trpc/events.subscribe`, written straight to Node's response: the same bytes and
 * headers as tRPC's SSE producer (`connected`, `ping` after SSE_PING_MS of quiet, tracked
 * events with `id:`, untracked ones with `id: ` and `restore-id` once an id is known,
 * `serialized-error` with the errorFormatter's shape, `return`: the frames of the shared wire
 * module, shared/trpc-wire.ts, which test/api/trpc-wire-contract.test.ts checks against tRPC), pinned by
 * test/api/event-stream-wire.test.ts, with the same rules (streamVisitorOf, subscribeInput,
 * openStreamHold, streamedEvent, shared with the procedure). One `res.write` per event; when
 * it answers false the stream hands nothing over until 'drain' (streamVisitorEvents merges a
 * run's queued deltas meanwhile, so a slow client catches up with fewer, larger events); a
 * client that takes nothing for SSE_STALL_MS is cut off, and reconnects from its last event id.
 *
 * Why not tRPC's pipeline: per event it went through ~14 layered async generators, web
 * streams (ReadableStream → TransformStream → TextEncoderStream → ReadableStream) and their
 * promises, and per stream 6 AbortControllers and 4 readable streams. Measured with
 * bench/fanout.ts, 1,000 streams at 2,000 deltas/s on one API process (2 cores shared with
 * other work; two runs each, the tRPC runs at load average 5.3 and 14.0, the lean ones at 2.0
 * and 7.7): API CPU per delta 0.29–0.32 ms → 0.07–0.10 ms (≈3,300 → 10,000–13,500 deltas/s
 * per core), API CPU 58–63 % → 15–20 % of a core, heap per open stream 71–73 KiB → 14 KiB,
 * delivery p50 2.6–48 ms → 1.3–1.5 ms, p99 373–575 ms → 12–30 ms, event-loop delay p99
 * 23–38 ms → 4–5 ms; nothing lost or misordered either way.
 *
 * A request the route does not fully understand goes to tRPC's handler unchanged
 * (`fallback`), so every malformed variant keeps tRPC's own answer.
 * @example app.get('/trpc/events.subscribe', eventStreamRoute({ createContext, fallback, onError }));
 */
export function eventStreamRoute(opts: EventStreamOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const sse = trpcConfig.sse;
  const pingMs = sse?.ping?.enabled ? (sse.ping.intervalMs ?? 1_000) : 0;
  const connected = connectedFrame(sse?.client ?? {});

  return async (request, reply) => {
    const lastEventIdHeader = request.headers['last-event-id'];
    // what tRPC would read from the request; a batch, a JSONL accept, a fragment, unparsable input or connection params go to tRPC
    const parsed = asksForJsonl(request.headers)
      ? null
      : readSubscriptionRequest(request.raw.url ?? '', typeof lastEventIdHeader === 'string' ? lastEventIdHeader : undefined);
    if (!parsed) return opts.fallback(request, reply);
    const ctx = opts.createContext({ req: request.raw, res: reply.raw, info: { connectionParams: parsed.connectionParams } });
    const failed = (cause: unknown) => {
      const error = trpcErrorOf(cause, reply.raw);
      opts.onError(error, request);
      return errorFrame(getTRPCErrorShape({ config: trpcConfig, ctx, error, input: parsed.input, path: PATH, type: 'subscription' }));
    };

    // as tRPC: the ticket and the page's origin first, then the input
    let visitor: VisitorClaims | null = null;
    let lastEventId: string | null = null;
    let refusal: unknown = null;
    try {
      visitor = await streamVisitorOf(ctx);
      const input = await subscribeInput.parseAsync(parsed.input).catch((cause: unknown) => {
        throw new TRPCError({ code: 'BAD_REQUEST', cause });
      });
      lastEventId = input?.lastEventId ?? null;
    } catch (err) {
      refusal = err;
    }

    reply.hijack();
    const res = reply.raw;
    // over the headers the hooks set (security, CORS, request id); `vary` replaces CORS's `Vary: Origin`, as tRPC's answer does
    res.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...SSE_HEADERS });
    res.write(connected);
    if (refusal !== null || visitor === null) {
      res.end(failed(refusal));
      return;
    }

    const abort = new AbortController();
    const onClose = () => abort.abort();
    res.once('close', onClose);
    if (res.destroyed) abort.abort();
    let hold: Awaited<ReturnType<typeof openStreamHold>> | null = null;
    const ping =
      pingMs > 0
        ? setTimeout(function tick() {
            res.write(PING_FRAME);
            ping?.refresh();
          }, pingMs)
        : null;
    let tail = '';
    try {
      hold = await openStreamHold({ ...ctx, visitor });
      // the id a client last saw: an untracked event blanks EventSource's id, `restore-id` puts it back
      let lastId = parsed.lastEventId;
      const { metrics } = ctx.services;
      const stallMs = ctx.services.config.SSE_STALL_MS;
      await streamVisitorEvents(
        ctx.services,
        visitor.visitorId,
        lastEventId,
        {
          write: (item) => {
            const written = res.write(dataFrame(streamedEvent(item), item.id, lastId));
            if (item.id !== null) lastId = item.id;
            ping?.refresh();
            return written || abort.signal.aborted;
          },
          // a slow client: the stream hands nothing over (live deltas queue in its inbox and go out merged) until its socket drains
          drained: () => {
            metrics.sseStalled.inc();
            return drained(res, abort.signal, stallMs, () => metrics.sseStallClosed.inc()).finally(() => metrics.sseStalled.dec());
          },
        },
        abort.signal,
      );
      if (!abort.signal.aborted) tail = RETURN_FRAME;
    } catch (err) {
      if (!isAbortError(err) && !abort.signal.aborted) tail = failed(err);
    } finally {
      if (ping) clearTimeout(ping);
      res.off('close', onClose);
      if (!res.destroyed) res.end(tail);
      await hold?.close();
    }
  };
}

/** An abort, as tRPC's SSE producer tells it from a failure (it then writes no error event). */
const isAbortError = (err: unknown) => typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';

/**
 * Resolves once `res` drains or `signal` aborts. A client that takes nothing for `stallMs` is cut
 * off (`onCut`, then the socket is destroyed, which aborts the stream): EventSource reconnects
 * from its last event id and gets the log and the run's text so far, so nothing is lost.
 */
function drained(res: ServerResponse, signal: AbortSignal, stallMs: number, onCut: () => void): Promise<void> {
  return new Promise((resolve) => {
    const cut =
      stallMs > 0
        ? setTimeout(() => {
            onCut();
            res.destroy();
          }, stallMs)
        : null;
    const done = () => {
      if (cut) clearTimeout(cut);
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
