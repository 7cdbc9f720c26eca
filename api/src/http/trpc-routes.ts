import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Services } from '../services.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContextFactory } from '../trpc/trpc.ts';
import { applyCors } from './cors.ts';
import { eventStreamRoute } from './event-stream-route.ts';
import { mutationRoute } from './mutation-route.ts';
import { requestIdOf } from './request-id.ts';
import { UPLOAD_PATH } from '../trpc/routers/console/knowledge.ts';

/** Largest request body accepted (a 4,000-character message is far below it). */
const MAX_BODY_BYTES = 64 * 1024;

/** A knowledge file's upload: the largest file allowed, as base64 (4 bytes for 3), and room for the rest. */
const uploadBodyBytes = (maxFileBytes: number) => Math.ceil(maxFileBytes / 3) * 4 + 64 * 1024;

/**
 * Most calls one batched request may carry; larger batches get tRPC's 400. The widget does
 * not batch at all (httpLink); a client that does must set httpBatchLink's `maxItems` to this
 * or less. Without it one request could start 1,000 sessions or 400 sends.
 */
export const MAX_BATCH_SIZE = 10;

export interface TrpcRouteOptions {
  /** false: every mutation through tRPC's own handler (the reference the lean route is compared with in tests) */
  leanMutations?: boolean;
}

/**
 * `/trpc/*`: the visitor, console and admin API, queries, mutations and SSE subscriptions
 * (`events.subscribe`, `console.conversations.changes`), with CORS for any origin. The
 * visitor event stream (`GET /trpc/events.subscribe`) is written by the lean SSE route
 * (event-stream-route.ts) and single JSON mutations are answered by the lean mutation route
 * (mutation-route.ts): same bytes, without tRPC's web-stream pipeline.
 *
 * Mounted with `fastifyRequestHandler` rather than `fastifyTRPCPlugin`, which parses JSON
 * bodies with Fastify's own parser: an oversized or broken body would then get Fastify's
 * error shape instead of tRPC's (`PAYLOAD_TOO_LARGE`, `BAD_REQUEST` naming JSON) that clients
 * read. Here every body reaches tRPC unread, which reads it up to MAX_BODY_BYTES. The context
 * keeps Node's request and response, as procedures set `Set-Cookie` and `Retry-After` on them.
 *
 * @example await app.register(trpcRoutes(services));
 */
export function trpcRoutes(s: Services, opts: TrpcRouteOptions = {}): (app: FastifyInstance) => Promise<void> {
  const createContext = createContextFactory(s);
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (request, _payload, done) => done(null, request.raw));
    app.addHook('onRequest', applyCors);
    // a request tRPC cannot even turn into a URL (`Host: x:99999`) is the client's fault
    app.setErrorHandler(async (error, _request, reply) => {
      if (!(error instanceof TRPCError)) throw error;
      return reply.code(getHTTPStatusCodeFromError(error)).type('text/plain; charset=utf-8').send(error.message);
    });
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = (request.params as { '*'?: string })['*'] ?? request.url.slice('/trpc/'.length).split('?')[0]!;
      await fastifyRequestHandler({
        router: appRouter,
        req: request,
        res: reply,
        path,
        // only the owner's file upload may be large; batching it with other calls is refused by its size
        maxBodySize: path === UPLOAD_PATH ? uploadBodyBytes(s.config.KNOWLEDGE_MAX_FILE_BYTES) : MAX_BODY_BYTES,
        maxBatchSize: MAX_BATCH_SIZE,
        createContext: ({ req, res, info }) => createContext({ req: req.raw as IncomingMessage, res: res.raw as ServerResponse, info }),
        onError: ({ error, path }) => onError(error, path, request),
      });
    };
    const onError = (error: TRPCError, path: string | undefined, request: FastifyRequest) => {
      // the procedure's path, never its input (a message's text); the error described, never raw
      if (error.code === 'INTERNAL_SERVER_ERROR')
        s.logger.child({ requestId: requestIdOf(request.raw) }).error({ path, err: error.cause ?? error }, 'trpc call failed');
    };
    // the visitor event stream, written by the lean SSE route (a static route wins over `/trpc/*`)
    app.get(
      '/trpc/events.subscribe',
      eventStreamRoute({ createContext, fallback: handle, onError: (error, request) => onError(error, 'events.subscribe', request) }),
    );
    // single JSON mutations (`message.send` above all), answered by the lean route; the rest by tRPC
    app.all(
      '/trpc/*',
      opts.leanMutations === false ? handle : mutationRoute({ createContext, fallback: handle, onError, maxBodyBytes: MAX_BODY_BYTES }),
    );
  };
}
