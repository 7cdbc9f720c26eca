import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { metricsRoute } from '../metrics/metrics-route.ts';
import { answerClientError } from './client-errors.ts';
import { consoleExports } from './console-export.ts';
import { consolePage } from './console-page.ts';
import { cronTitles } from './cron-titles.ts';
import { emailUnsubscribe } from './email-unsubscribe.ts';
import { errorHandler, notFound } from './errors.ts';
import { fileRoutes } from './file-routes.ts';
import { healthRoutes } from './health-routes.ts';
import { assignRequestId } from './request-id.ts';
import { securityHeaders } from './security-headers.ts';
import { siteMessages } from './site-messages.ts';
import type { ExtraRoutes } from './site-routes.ts';
import { trpcRoutes, type TrpcRouteOptions } from './trpc-routes.ts';

export { MAX_BATCH_SIZE } from './trpc-routes.ts';

/** Headers must arrive within this (or the request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;

/** Idle keep-alive connections stay open longer than load balancers' usual 60 s, so the balancer closes first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The one HTTP server of an API process, on Fastify: /trpc (visitor API, SSE included),
 * /healthz (liveness), /readyz (readiness: stores reachable, migrations current), /metrics
 * (Prometheus, token-protected), /api/cron/titles (a title pass, secret-protected),
 * /email/unsubscribe (the link in every email), /files (attachments: upload and download),
 * /api/v1/sites/:siteKey/messages (server-to-server), /admin (the console and its CSV
 * exports), and `extraRoutes` (the widget bundle, the demo redirects: `siteRoutes`).
 * Answers the Node server, ready to `listen`; closing it (and its connections) ends every SSE
 * stream, whose clients reconnect and resume from their last event id elsewhere.
 *
 * @example const server = await createHttpServer(services, siteRoutes({ production: true }));
 */
export async function createHttpServer(s: Services, extraRoutes?: ExtraRoutes, trpc?: TrpcRouteOptions): Promise<Server> {
  const app = Fastify({
    serverFactory: (handler) => createServer(nodeTimeouts(s.config.HTTP_REQUEST_TIMEOUT_MS), handler),
    // pino lines are the services' (scoped by request id where it matters); Fastify's own
    // per-request lines would only repeat what the metrics count
    logger: false,
    genReqId: (req) => assignRequestId(req, s.config.TRUST_PROXY),
    // a request the parser rejects is answered with `Connection: close` (Fastify's own answer omits it)
    clientErrorHandler: answerClientError,
    // HEAD is declared per route, where the handler knows to send no body
    exposeHeadRoutes: false,
    // a target Fastify cannot route (a broken `%` escape) skips the hooks: headers set here
    frameworkErrors: async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      await everyAnswer(request, reply);
      if (error.code === 'FST_ERR_BAD_URL') return notFound(request, reply);
      return reply
        .code(error.statusCode ?? 400)
        .type('text/plain; charset=utf-8')
        .send('Bad request');
    },
  });
  const security = securityHeaders(s.config.TRUST_PROXY);
  const everyAnswer = (request: FastifyRequest, reply: FastifyReply) => security(request, reply.header('x-request-id', request.id));
  app.addHook('onRequest', everyAnswer);
  app.setErrorHandler(errorHandler(s.logger));
  app.setNotFoundHandler(notFound);

  await app.register(trpcRoutes(s, trpc));
  await app.register(healthRoutes(s));
  await app.register(metricsRoute(s.metrics, s.config.METRICS_TOKEN));
  await app.register(cronTitles(s));
  await app.register(consolePage({ production: s.config.NODE_ENV === 'production' }));
  await app.register(consoleExports(s));
  await app.register(siteMessages(s));
  await app.register(emailUnsubscribe(s));
  await app.register(fileRoutes(s));
  if (extraRoutes) await app.register(extraRoutes);
  await app.ready();
  return app.server;
}

/**
 * A client that sends its request slowly (a trickled body, headers never finished) gets 408
 * and is disconnected. Node's timeouts cover receiving the request only: an SSE response
 * streams for as long as it likes. Node checks them every 30 s by default, so check more
 * often for the timeouts to hold within a few seconds.
 */
function nodeTimeouts(requestTimeout: number) {
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(5_000, Math.ceil(headersTimeout / 4)),
  };
}
