import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** This folder, also from the JavaScript `npm run build` compiles into dist/demo/ (the pages stay here). */
const DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './' : '../../demo/', import.meta.url));

/**
 * The shop's help pages (`pages/<name>.html`, in `layout.html`): what the demo site's knowledge
 * source reads through `/sitemap.xml`, so the demo assistant answers from them and cites them.
 */
export const HELP_PAGES = ['shipping', 'returns', 'sizes', 'care', 'payment'] as const;

/** The shop's pages and assets (and the help pages above); nothing else on this origin exists. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/inline': { file: 'inline.html', type: 'text/html; charset=utf-8' },
  '/demo.css': { file: 'demo.css', type: 'text/css; charset=utf-8' },
  '/shop.js': { file: 'shop.js', type: 'text/javascript; charset=utf-8' },
};

export interface DemoShopOptions {
  /** the site key the pages embed */
  siteKey: string;
  /** the Heed API's base URL as this request's browser reaches it, ending in `/` */
  heedUrl: (req: IncomingMessage) => string;
}

/**
 * The demo shop: a customer's site on its own origin (its own port), embedding Heed with
 * exactly the site owners' snippet (docs/site-owners/embedding.md) and nothing else from Heed, under a strict CSP that allows
 * scripts and connections only from itself and the Heed origin. `npm start` runs it beside
 * the API; the browser journeys run on it, so a bug that only shows on a third-party
 * page (a relative chunk URL, a same-origin assumption, an inline script) shows here first.
 */
export function createDemoShop(opts: DemoShopOptions): Server {
  return createServer((req, res) => {
    serve(req, res, opts).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, opts: DemoShopOptions): Promise<void> {
  const path = pathOf(req.url);
  if (path === '/favicon.ico') return void res.writeHead(204).end();
  if (path === '/sitemap.xml' && (req.method === 'GET' || req.method === 'HEAD')) return sitemap(req, res);
  const help = HELP_PAGES.find((p) => path === `/${p}`);
  if (help && (req.method === 'GET' || req.method === 'HEAD')) return helpPage(req, res, opts, help);
  const entry = path === null ? undefined : FILES[path];
  if (!entry || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  const heedUrl = opts.heedUrl(req);
  let body = await readFile(`${DIR}${entry.file}`, 'utf8');
  if (entry.type.startsWith('text/html')) {
    body = body.replaceAll('{{HEED_URL}}', escapeAttribute(heedUrl)).replaceAll('{{SITE_KEY}}', escapeAttribute(opts.siteKey));
  }
  res.writeHead(200, {
    'content-type': entry.type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'content-security-policy': shopCsp(new URL(heedUrl).origin),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The help pages, at the address this request reached the shop by. */
function sitemap(req: IncomingMessage, res: ServerResponse): void {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const urls = HELP_PAGES.map((p) => `<url><loc>${escapeAttribute(`${origin}/${p}`)}</loc></url>`).join('');
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n`;
  res.writeHead(200, {
    'content-type': 'application/xml; charset=utf-8',
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function helpPage(req: IncomingMessage, res: ServerResponse, opts: DemoShopOptions, name: string): Promise<void> {
  const heedUrl = opts.heedUrl(req);
  const [layout, content] = await Promise.all([readFile(`${DIR}layout.html`, 'utf8'), readFile(`${DIR}pages/${name}.html`, 'utf8')]);
  const title = /<h1>([^<]*)<\/h1>/.exec(content)?.[1] ?? name;
  const body = layout
    .replace('{{CONTENT}}', content)
    .replaceAll('{{TITLE}}', title)
    .replaceAll('{{HEED_URL}}', escapeAttribute(heedUrl))
    .replaceAll('{{SITE_KEY}}', escapeAttribute(opts.siteKey));
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-security-policy': shopCsp(new URL(heedUrl).origin),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * What a careful customer's CSP looks like: no inline script anywhere, scripts and
 * connections only from the shop and from Heed. `style-src 'self'` with no
 * 'unsafe-inline': the widget styles itself with constructed stylesheets (adopted by its
 * shadow roots), which style-src does not govern, and sets no inline `style` attribute.
 */
export function shopCsp(heedOrigin: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${heedOrigin}`,
    `connect-src ${heedOrigin}`,
    "style-src 'self'",
    // attached images and their thumbnails load from Heed; previews before sending need no blob: or data:
    `img-src 'self' data: ${heedOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function pathOf(url: string | undefined): string | null {
  try {
    return new URL(url ?? '/', 'http://x').pathname;
  } catch {
    return null;
  }
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
