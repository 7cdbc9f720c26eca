import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sendFile } from './static-files.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WIDGET_DIR = `${ROOT}dist/widget`;
const DEMO_DIR = `${ROOT}demo`;

type Route = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

const notFound = (res: ServerResponse, what: string) => {
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(what);
};

const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').pathname;

/**
 * What `npm start` serves besides the API: the widget bundle (built by Vite into
 * dist/widget: `/widget.js` and its lazily loaded `/widget-chunks/*`) and the demo host
 * site (`/`, `/inline`, `/demo/*`).
 */
export function siteRoutes(): Record<string, Route> {
  const widgetFile: Route = async (req, res) => {
    // The loader's URL is stable, so it must be revalidated; chunks are content-hashed.
    const path = pathOf(req);
    const immutable = path.startsWith('/widget-chunks/');
    const ok = await sendFile(req, res, WIDGET_DIR, path, { cors: true, cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache' });
    if (!ok) notFound(res, 'The widget is not built: run `npm run build:widget` (npm start does it for you).');
  };
  const page = (file: string): Route => async (req, res) => {
    if (!(await sendFile(req, res, DEMO_DIR, file))) notFound(res, 'Not found');
  };
  return {
    '/widget.js': widgetFile,
    '/widget.js.map': widgetFile,
    '/widget-chunks/': widgetFile,
    '/demo/': async (req, res) => {
      if (!(await sendFile(req, res, DEMO_DIR, pathOf(req).slice('/demo/'.length)))) notFound(res, 'Not found');
    },
    '/inline': page('inline.html'),
    '/': async (req, res) => (pathOf(req) === '/' ? page('index.html')(req, res) : notFound(res, 'Not found')),
  };
}
