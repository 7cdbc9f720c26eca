import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getTRPCErrorShape, TRPCError, type AnyProcedure } from '@trpc/server';
import { asksForJsonl, errorAnswer, resultAnswer, statusOf, TRPC_VARY, type WireAnswer } from '../shared/trpc-wire.ts';
import { appRouter } from '../trpc/app-router.ts';
import { trpcErrorOf } from '../trpc/refusal.ts';
import { trpcConfig, type Context, type CreateContext } from '../trpc/trpc.ts';

export interface MutationRouteOptions {
  createContext: CreateContext;
  /** serves a request this route leaves to tRPC (a batch, another content type, no length, a query or an unknown path) */
  fallback: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** tRPC's `onError`, for a call that failed */
  onError: (error: TRPCError, path: string, request: FastifyRequest) => void;
  /** largest body read (tRPC's `maxBodySize`); a longer one goes to tRPC, which refuses it */
  maxBodyBytes: number;
}

/** Every mutation by its path (`message.send`); tRPC keeps them flat under the router's `_def`. */
const mutations = new Map(
  Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).filter(([, p]) => p._def.type === 'mutation'),
);

/** A procedure path as the clients write it: nothing to decode. */
const PLAIN_PATH = /^[A-Za-z][\w.]*$/;

/**
 * `POST /trpc/<mutation>` with a JSON body, answered straight from the procedure: the same
 * status, body and tRPC headers (`Vary: trpc-accept, accept`, `Content-Type:
 * application/json`) as tRPC's own handler, pinned by test/api/mutation-wire.test.ts, which
 * sends every request to both. The call runs through the procedure itself (middlewares, zod
 * input, errorFormatter), so rules stay in one place; only the transport is lean, and its
 * format is the shared wire module's (shared/trpc-wire.ts). The body goes out with
 * `Content-Length` rather than chunked.
 *
 * Why: `message.send` is the path every visitor message takes, and tRPC's fetch adapter
 * builds per call a `Request` with `Headers`, a `ReadableStream` body and three AbortSignals,
 * then a `Response` that Fastify reads back as a stream (~10 % of the API's CPU in the ingest
 * bench's profile). Measured on a 2-core VM whose speed varied 2x from minute to minute, so
 * interleaved: 8 pairs of 1,600 sends over keep-alive HTTP into one process, CPU of that
 * process (server and clients) 2.9–4.0 ms a send against 3.8–4.7 ms through tRPC, lower in
 * all 8 pairs (median 0.67 ms); in the ingest bench, API CPU a send 0.7 against 0.9 ms.
 *
 * A request the route does not fully understand goes to tRPC unchanged (`fallback`):
 * batches, query strings, JSONL accepts, other content types, bodies without a length or
 * over the limit, queries, subscriptions and unknown paths keep tRPC's own answer.
 * @example app.all('/trpc/*', mutationRoute({ createContext, fallback: handle, onError, maxBodyBytes: MAX_BODY_BYTES }));
 */
export function mutationRoute(opts: MutationRouteOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const call = leanCall(request, opts.maxBodyBytes);
    if (!call) return opts.fallback(request, reply);
    const body = await readBody(request.raw);
    // the client went away mid-body: nobody to answer, and Fastify must not wait for an answer either
    if (body === null) {
      reply.hijack();
      return;
    }
    // read when the procedure asks, after its auth, as tRPC does; a broken body is the client's fault
    let parsed: { input: unknown } | undefined;
    const getRawInput = async () => {
      try {
        parsed ??= { input: body ? JSON.parse(body) : undefined };
      } catch (cause) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: cause instanceof Error ? cause.message : 'Invalid input', cause });
      }
      return parsed.input;
    };

    let ctx: Context | undefined;
    let answer: WireAnswer;
    try {
      ctx = opts.createContext({ req: request.raw, res: reply.raw, info: { connectionParams: null } });
      answer = resultAnswer(
        await call.procedure({ path: call.path, getRawInput, ctx, type: 'mutation', signal: undefined, batchIndex: 0 }),
      );
    } catch (cause) {
      const error = trpcErrorOf(cause, reply.raw);
      opts.onError(error, call.path, request);
      answer = errorAnswer(getTRPCErrorShape({ config: trpcConfig, ctx, error, input: parsed?.input, path: call.path, type: 'mutation' }));
    }
    // a Buffer, as Fastify would add `; charset=utf-8` to a string's type and tRPC does not
    return reply
      .code(statusOf(answer))
      .header('vary', TRPC_VARY)
      .header('content-type', 'application/json')
      .send(Buffer.from(JSON.stringify(answer)));
  };
}

/** The mutation this request calls, or null for anything left to tRPC. */
function leanCall(request: FastifyRequest, maxBodyBytes: number): { path: string; procedure: AnyProcedure } | null {
  if (request.method !== 'POST') return null;
  const path = (request.raw.url ?? '').slice('/trpc/'.length);
  if (!PLAIN_PATH.test(path)) return null; // a query string (`?batch=1`), an escape, a batch of paths
  const procedure = mutations.get(path);
  if (!procedure) return null;
  const { headers } = request.raw;
  if ((headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') return null;
  if (asksForJsonl(headers)) return null;
  const length = Number(headers['content-length']);
  if (headers['transfer-encoding'] !== undefined || !Number.isSafeInteger(length) || length > maxBodyBytes) return null;
  return { path, procedure };
}

/**
 * The whole body as text, decoded as `Request.text()` decodes it (UTF-8, a leading BOM
 * dropped); null when the client disconnects first. Node's parser holds it to Content-Length.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      done();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onGone = () => {
      done();
      resolve(null);
    };
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onGone);
    req.once('close', onGone);
  });
}
