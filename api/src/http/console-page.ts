import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { rawPathOf } from './request-path.ts';
import { replyFile } from './static-files.ts';
import { PROJECT_ROOT } from '../project-root.ts';

const CONSOLE_DIR = `${PROJECT_ROOT}dist/console`;

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

/**
 * Serves the console built into dist/console (`npm run build:console`): `/admin` redirects
 * to `/admin/`, which is `index.html` (revalidated on every load, ETag: it names the current
 * chunks); `/admin/assets/*` are content-hashed and cached for a year (`immutable`), sent
 * precompressed (br, gzip) like the widget's. Every answer carries the console's CSP and
 * refuses framing. Source maps answer 404 in production. Other `/admin/…` paths (CSV exports)
 * belong to console-export.ts.
 *
 * @example await app.register(consolePage({ production: true }));
 */
export function consolePage(opts: { production: boolean }): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(CONSOLE_HEADERS);
    });
    const methods: HTTPMethods[] = ['GET', 'HEAD'];
    app.route({
      method: methods,
      url: '/admin',
      handler: (_request, reply) => reply.code(301).headers({ location: '/admin/', 'cache-control': 'no-cache' }).send(),
    });
    for (const url of ['/admin/', '/admin/index.html'])
      app.route({ method: methods, url, handler: (request, reply) => serve(request, reply, '/index.html', false) });
    app.route({
      method: methods,
      url: '/admin/assets/*',
      handler: (request, reply) => serve(request, reply, rawPathOf(request).slice('/admin'.length), true),
    });

    async function serve(request: FastifyRequest, reply: FastifyReply, file: string, asset: boolean) {
      const ok = await replyFile(request, reply, CONSOLE_DIR, file, {
        cacheControl: asset ? 'public, max-age=31536000, immutable' : 'no-cache',
        hidden: opts.production ? (f) => f.endsWith('.map') : undefined,
      });
      if (ok) return;
      const missing = asset ? 'Not found' : 'The console is not built: run `npm run build:console` (npm start does it for you).';
      return reply.code(404).type('text/plain; charset=utf-8').send(missing);
    }
  };
}

/** On every console answer, the page, its assets, a redirect and a 404 alike. */
const CONSOLE_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};
