import { createServer, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sendFile } from '../../api/src/http/static-files.ts';
import { listen } from './harness.ts';

const WIDGET_DIR = fileURLToPath(new URL('../../dist/widget', import.meta.url));

/** One file of a host site: its body, content type and extra response headers. */
export type HostFile = string | { body: string; type?: string; headers?: Record<string, string> };

export interface HostSite {
  /** the site's origin, e.g. http://localhost:41235 */
  url: string;
  /** every path the browser asked this site for, in order */
  requests: string[];
  close(): Promise<void>;
}

const typeOf = (path: string) =>
  path.endsWith('.js') ? 'text/javascript; charset=utf-8' : path.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8';

/**
 * A third party's site on its own origin (127.0.0.1 on a free port; reach it as
 * `host`, e.g. `localhost`, to make it cross-site too): serves `files` by path, each HTML
 * page with `csp` as its Content-Security-Policy when given.
 *
 * @example
 * const shop = await startHostSite({ '/': `<!doctype html>…${widgetTag(heed)}` }, { host: 'localhost' });
 */
export async function startHostSite(files: Record<string, HostFile>, opts: { host?: string; csp?: string } = {}): Promise<HostSite> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    requests.push(path);
    const file = files[path];
    if (file === undefined) return void res.writeHead(404).end('Not found');
    const { body, type = typeOf(path), headers = {} } = typeof file === 'string' ? { body: file } : file;
    const csp = opts.csp && type.startsWith('text/html') ? { 'content-security-policy': opts.csp } : {};
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', ...csp, ...headers }).end(body);
  });
  return serve(server, opts.host, requests);
}

/**
 * The built widget (dist/widget) on a CDN-like origin under a path prefix, e.g.
 * `http://127.0.0.1:41236/heed/widget.js`, with the same CORS and cache headers as the API.
 */
export async function startWidgetCdn(prefix = '/heed/'): Promise<HostSite> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (!path.startsWith(prefix)) return void res.writeHead(404).end('Not found');
    const immutable = path.includes('/widget-chunks/');
    void sendFile(req, res, WIDGET_DIR, path.slice(prefix.length), {
      cors: true,
      cacheControl: immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    }).then((ok) => ok || res.writeHead(404).end('Not found'));
  });
  return serve(server, '127.0.0.1', requests);
}

async function serve(server: Server, host = '127.0.0.1', requests: string[]): Promise<HostSite> {
  const port = await listen(server);
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The site owners' snippet (docs/site-owners/embedding.md) for a stack's API, with extra `data-*` attributes. */
export function widgetTag(apiUrl: string, attrs: Record<string, string> = {}, src = `${apiUrl}/widget.js`): string {
  const extra = Object.entries(attrs)
    .map(([k, v]) => ` data-${k}="${v}"`)
    .join('');
  return `<script src="${src}" data-site="demo"${extra} async></script>`;
}
