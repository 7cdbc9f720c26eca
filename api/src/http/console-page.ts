import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { sendFile } from './static-files.ts';

const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/console', import.meta.url));

/**
 * The console page's policy: its own scripts, styles, images and API only (Vite emits no
 * inline script or style; Lit adopts constructed stylesheets, which CSP does not gate),
 * nothing may frame it (clickjacking a signed-in owner into "Delete site"), no `<base>`
 * rewrite, forms post only to itself.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The paths the console's files answer; other `/admin/…` paths (CSV exports) belong to other routes. */
export function isConsolePath(path: string): boolean {
  return path === '/admin' || path === '/admin/' || path === '/admin/index.html' || path.startsWith('/admin/assets/');
}

/**
 * Serves the console built into dist/console (`npm run build:console`): `/admin` redirects
 * to `/admin/`, which is `index.html` (revalidated on every load, ETag: it names the current
 * chunks); `/admin/assets/*` are content-hashed and cached for a year (`immutable`), sent
 * precompressed (br, gzip) like the widget's. Every answer carries the console's CSP and
 * refuses framing. Source maps answer 404 in production.
 *
 * @example if (isConsolePath(path)) return serveConsole(req, res, path, production);
 */
export async function serveConsole(req: IncomingMessage, res: ServerResponse, path: string, production: boolean): Promise<void> {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (path === '/admin') {
    res.writeHead(301, { location: '/admin/', 'cache-control': 'no-cache' }).end();
    return;
  }
  const asset = path.startsWith('/admin/assets/');
  const file = asset ? path.slice('/admin'.length) : '/index.html';
  const ok = await sendFile(req, res, CONSOLE_DIR, file, {
    cacheControl: asset ? 'public, max-age=31536000, immutable' : 'no-cache',
    hidden: production ? (f) => f.endsWith('.map') : undefined,
  });
  if (ok) return;
  const missing = asset ? 'Not found' : 'The console is not built: run `npm run build:console` (npm start does it for you).';
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(missing);
}
