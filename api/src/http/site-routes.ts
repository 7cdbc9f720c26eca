import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_ROOT } from '../project-root.ts';
import { replyFile } from './static-files.ts';
import { requestHostname } from './request-host.ts';
import { rawPathOf } from './request-path.ts';

const WIDGET_DIR = `${PROJECT_ROOT}dist/widget`;

const notFound = (reply: FastifyReply, what: string) => reply.code(404).type('text/plain; charset=utf-8').send(what);

const isSourceMap = (file: string) => file.endsWith('.map');

export interface SiteRouteOptions {
  /** port of the demo shop on this host (its own origin); unset when the demo is off */
  demoPort?: number;
  /**
   * `NODE_ENV=production`: source maps answer 404, so the widget's sources are not public
   * (the build writes maps without linking them from the JS; see vite.config.ts)
   */
  production?: boolean;
}

/** Routes an API process may serve besides its own (`siteRoutes`), registered as a Fastify plugin. */
export type ExtraRoutes = (app: FastifyInstance) => Promise<void>;

/**
 * What `npm start` serves besides the API: the widget bundle (built by Vite into
 * dist/widget: `/widget.js` and its lazily loaded `/widget-chunks/*`, fetched with CORS by
 * customers' pages), and redirects from `/` and `/inline` to the demo shop, which runs on
 * its own origin like any customer's site.
 *
 * @example await createHttpServer(services, siteRoutes({ demoPort: 3001 }));
 */
export function siteRoutes(opts: SiteRouteOptions = {}): ExtraRoutes {
  return async (app) => {
    const widgetFile = async (request: FastifyRequest, reply: FastifyReply) => {
      // The loader's URL is stable, so it must be revalidated; chunks are content-hashed.
      const path = rawPathOf(request);
      const immutable = path.startsWith('/widget-chunks/');
      const ok = await replyFile(request, reply, WIDGET_DIR, path, {
        cors: true,
        cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        hidden: opts.production ? isSourceMap : undefined,
      });
      if (ok) return;
      if (opts.production && isSourceMap(path)) return notFound(reply, 'Not found');
      return notFound(reply, 'The widget is not built: run `npm run build:widget` (npm start does it for you).');
    };
    for (const url of ['/widget.js', '/widget.js.map', '/widget-chunks/*'])
      app.route({ method: ['GET', 'HEAD'], url, handler: widgetFile });

    for (const url of ['/', '/inline']) {
      app.route({
        method: ['GET', 'HEAD'],
        url,
        handler: (request, reply) => {
          if (!opts.demoPort) return notFound(reply, 'This is the Heed API. The demo shop is off (DEMO_SITE_KEY is empty).');
          const location = `http://${requestHostname(request.raw)}:${opts.demoPort}${url}`;
          return reply.code(302).headers({ location, 'cache-control': 'no-store' }).send();
        },
      });
    }
  };
}
