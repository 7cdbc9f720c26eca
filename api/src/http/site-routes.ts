import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sendFile } from './static-files.ts';
import { requestHostname } from './request-host.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WIDGET_DIR = `${ROOT}dist/widget`;

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const notFound = (res: ServerResponse, what: string) => {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(what);
};

const isSourceMap = (file: string) => file.endsWith('.map');

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').pathname;

export interface SiteRouteOptions {
  /** port of the demo shop on this host (its own origin); unset when the demo is off */
  demoPort?: number;
  /**
   * `NODE_ENV=production`: source maps answer 404, so the widget's sources are not public
   * (the build writes maps without linking them from the JS; see vite.config.ts)
   */
  production?: boolean;
}

/**
 * What `npm start` serves besides the API: the widget bundle (built by Vite into
 * dist/widget: `/widget.js` and its lazily loaded `/widget-chunks/*`, fetched with CORS by
 * customers' pages), and redirects from `/` and `/inline` to the demo shop, which runs on
 * its own origin like any customer's site.
 */
export function siteRoutes(opts: SiteRouteOptions = {}): Record<string, Route> {
  const widgetFile: Route = async (req, res) => {
    // The loader's URL is stable, so it must be revalidated; chunks are content-hashed.
    const path = pathOf(req);
    const immutable = path.startsWith('/widget-chunks/');
    const ok = await sendFile(req, res, WIDGET_DIR, path, {
      cors: true,
      cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      hidden: opts.production ? isSourceMap : undefined,
    });
    if (ok) return;
    if (opts.production && isSourceMap(path)) return notFound(res, 'Not found');
    notFound(res, 'The widget is not built: run `npm run build:widget` (npm start does it for you).');
  };
  const toDemo: Route = async (req, res) => {
    const path = pathOf(req);
    if (path !== '/' && path !== '/inline') return notFound(res, 'Not found');
    if (!opts.demoPort) return notFound(res, 'This is the Heed API. The demo shop is off (DEMO_SITE_KEY is empty).');
    res.writeHead(302, { location: `http://${requestHostname(req)}:${opts.demoPort}${path}`, 'cache-control': 'no-store' }).end();
  };
  return {
    '/widget.js': widgetFile,
    '/widget.js.map': widgetFile,
    '/widget-chunks/': widgetFile,
    '/inline': toDemo,
    '/': toDemo,
  };
}
