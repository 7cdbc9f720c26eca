import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Services } from '../services.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContextFactory } from '../trpc/trpc.ts';
import { applyCors } from './cors.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { checkHealth, checkReadiness } from './health.ts';
import { CRON_TITLES_PATH, cronTitlesRoute } from './cron-titles.ts';
import { METRICS_PATH, metricsRoute } from '../metrics/metrics-route.ts';
import { CONSOLE_EXPORT_PREFIX, consoleExportRoute } from './console-export.ts';
import { isConsolePath, serveConsole } from './console-page.ts';
import { assignRequestId, requestIdOf } from './request-id.ts';
import { SITE_MESSAGES_PREFIX, siteMessagesRoute } from './site-messages.ts';

/** Largest request body accepted (a 4,000-character message is far below it). */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Most calls one batched request may carry; larger batches get tRPC's 400. The widget does
 * not batch at all (httpLink); a client that does must set httpBatchLink's `maxItems` to this
 * or less. Without it one request could start 1,000 sessions or 400 sends.
 */
export const MAX_BATCH_SIZE = 10;

/** Headers must arrive within this (or the request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;

/** Idle keep-alive connections stay open longer than load balancers' usual 60 s, so the balancer closes first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * The one HTTP server of an API process: /trpc (visitor API, SSE included), /healthz
 * (liveness), /readyz (readiness: stores reachable, migrations current), /metrics
 * (Prometheus, token-protected),
 * /api/cron/titles (a title pass, secret-protected), and any extra routes (the widget
 * bundle, the demo pages) keyed by path prefix.
 */
export function createHttpServer(s: Services, extraRoutes: Record<string, Route> = {}): Server {
  const trpc = createHTTPHandler({
    router: appRouter,
    createContext: createContextFactory(s),
    basePath: '/trpc/',
    maxBodySize: MAX_BODY_BYTES,
    maxBatchSize: MAX_BATCH_SIZE,
    onError({ error, path, req }) {
      // the procedure's path, never its input (a message's text); the error described, never raw
      if (error.code === 'INTERNAL_SERVER_ERROR') s.logger.child({ requestId: requestIdOf(req) }).error({ path, err: error.cause ?? error }, 'trpc call failed');
    },
  });
  const routes = Object.entries(extraRoutes).sort(([a], [b]) => b.length - a.length);
  const cronTitles = cronTitlesRoute(s);
  const metrics = metricsRoute(s.metrics, s.config.METRICS_TOKEN);

  // A client that sends its request slowly (a trickled body, headers never finished) gets
  // 408 and is disconnected. Node's timeouts cover receiving the request only: an SSE
  // response streams for as long as it likes. Node checks them every 30 s by default, so
  // check more often for the timeouts to hold within a few seconds.
  const requestTimeout = s.config.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);
  const timeouts = {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(5_000, Math.ceil(headersTimeout / 4)),
  };

  return createServer(timeouts, (req, res) => {
    const requestId = assignRequestId(req, res, s.config.TRUST_PROXY);
    void (async () => {
      applySecurityHeaders(req, res, s.config.TRUST_PROXY);
      const path = requestPath(req.url);
      if (path === null) return res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
      if (path.startsWith('/trpc/')) {
        if (applyCors(req, res)) return;
        return trpc(req, res);
      }
      if (path === '/healthz' || path === '/readyz') {
        const health = path === '/healthz' ? await checkHealth(s) : await checkReadiness(s);
        res.writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        return res.end(JSON.stringify(health));
      }
      if (path === METRICS_PATH) return metrics(req, res);
      if (path === CRON_TITLES_PATH) return cronTitles(req, res);
      if (isConsolePath(path)) return serveConsole(req, res, path, s.config.NODE_ENV === 'production');
      if (path.startsWith(CONSOLE_EXPORT_PREFIX)) return consoleExportRoute(s)(req, res);
      if (path.startsWith(SITE_MESSAGES_PREFIX)) return siteMessagesRoute(s)(req, res);
      const route = routes.find(([prefix]) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
      if (route) return route[1](req, res);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    })().catch((err) => {
      s.logger.child({ requestId }).error({ err }, 'http request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
}

/** The path of a request target, or null for one no URL parser accepts (`//`, `http://[`). */
function requestPath(url = '/'): string | null {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return null;
  }
}
