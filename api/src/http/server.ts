import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Services } from '../services.ts';
import { appRouter } from '../trpc/app-router.ts';
import { createContextFactory } from '../trpc/trpc.ts';
import { applyCors } from './cors.ts';
import { checkHealth } from './health.ts';
import { CRON_TITLES_PATH, cronTitlesRoute } from './cron-titles.ts';

/** Largest request body accepted (a 4,000-character message is far below it). */
const MAX_BODY_BYTES = 64 * 1024;

type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * The one HTTP server of an API process: /trpc (visitor API, SSE included), /healthz,
 * /api/cron/titles (a title pass, secret-protected), and any extra routes (the widget
 * bundle, the demo pages) keyed by path prefix.
 */
export function createHttpServer(s: Services, extraRoutes: Record<string, Route> = {}): Server {
  const trpc = createHTTPHandler({
    router: appRouter,
    createContext: createContextFactory(s),
    basePath: '/trpc/',
    maxBodySize: MAX_BODY_BYTES,
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') s.log(`trpc ${path ?? '?'} failed`, error.cause ?? error);
    },
  });
  const routes = Object.entries(extraRoutes).sort(([a], [b]) => b.length - a.length);
  const cronTitles = cronTitlesRoute(s);

  return createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.startsWith('/trpc/')) {
        if (applyCors(req, res)) return;
        return trpc(req, res);
      }
      if (path === '/healthz') {
        const health = await checkHealth(s);
        res.writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        return res.end(JSON.stringify(health));
      }
      if (path === CRON_TITLES_PATH) return cronTitles(req, res);
      const route = routes.find(([prefix]) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
      if (route) return route[1](req, res);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    })().catch((err) => {
      s.log('http request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
}
