import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { crawl, type CrawlLimits } from '../../api/src/knowledge/crawl.ts';
import { FetchRefused, safeFetch } from '../../api/src/knowledge/safe-fetch.ts';

/**
 * Crawling a real website on loopback: a sitemap and the pages it lists, robots.txt obeyed,
 * other hosts left alone, conditional requests on the next sync, a crawl from one page through
 * its same-host links; and the safety rules: no private or local address unless allowed, no
 * other scheme through a redirect, bounded bytes and redirects.
 */
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title} · Demo shop</title></head><body>
  <nav><a href="/">Home</a> <a href="/shipping">Shipping</a> <a href="/returns">Returns</a> <a href="https://elsewhere.example/x">Elsewhere</a></nav>
  <main><article><h1>${title}</h1>${body}</article></main><footer>© Demo shop · <a href="/legal">Legal</a></footer></body></html>`;

const SHIPPING = page(
  'Shipping',
  `<p>We ship to Norway, Sweden and Denmark. Orders placed before noon leave the warehouse the same working day, and most arrive within two working days.</p>
   <h2>Costs</h2><p>Shipping is free for orders above 50 EUR. Below that, delivery costs 4.90 EUR per order, whatever its size or weight.</p>
   <h2>Tracking</h2><p>Every parcel gets a tracking link by email as soon as it leaves the warehouse. The link works for thirty days.</p>`,
);
const RETURNS = page(
  'Returns',
  `<p>You can return any item within 30 days of delivery, unworn and with its labels. Returns are free from Norway and Sweden; from Denmark a return costs 5 EUR.</p>
   <h2>Refunds</h2><p>We refund to the original payment method within five working days after the parcel reaches us.</p>`,
);

let server: Server;
let base: string;
const hits: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers['if-none-match'] ?? ''}`.trim());
    const send = (status: number, body: string, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    switch (req.url) {
      case '/robots.txt':
        return send(200, 'User-agent: *\nDisallow: /private\n', 'text/plain');
      case '/sitemap.xml':
        return send(
          200,
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
           ${['/shipping', '/returns', '/private/prices', '/missing'].map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}
           <url><loc>https://elsewhere.example/page</loc></url></urlset>`,
          'application/xml',
        );
      case '/':
        return send(200, page('Demo shop', '<p>Outdoor gear for the north: boots, packs and jackets, shipped from Oslo.</p>'));
      case '/shipping':
        if (req.headers['if-none-match'] === '"ship-1"') return send(304, '', 'text/html', { etag: '"ship-1"' });
        return send(200, SHIPPING, 'text/html; charset=utf-8', { etag: '"ship-1"' });
      case '/returns':
        return send(200, RETURNS);
      case '/legal':
        return send(200, page('Legal', '<p>Demo shop AS, Storgata 1, Oslo. Registered in Norway under number 123 456 789.</p>'));
      case '/huge':
        return send(200, page('Huge', `<p>${'x'.repeat(200_000)}</p>`));
      case '/loop':
        return send(302, '', 'text/html', { location: '/loop' });
      case '/to-file':
        return send(302, '', 'text/html', { location: 'file:///etc/passwd' });
      default:
        return send(404, 'not found', 'text/plain');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const limits = (over: Partial<CrawlLimits> = {}): CrawlLimits => ({
  allowPrivate: true,
  maxBytes: 100_000,
  timeoutMs: 5_000,
  maxPages: 50,
  totalTimeMs: 30_000,
  ...over,
});

test('a sitemap: its pages on this host are read into excerpts under their headings; robots.txt and errors are reported per page', async () => {
  const result = await crawl(`${base}/sitemap.xml`, limits());
  expect(result.pages.map((p) => [p.url, p.title])).toEqual([
    [`${base}/shipping`, 'Shipping · Demo shop'],
    [`${base}/returns`, 'Returns · Demo shop'],
  ]);
  const shipping = result.pages[0]!;
  expect(shipping.excerpts.map((e) => e.heading)).toEqual(['Shipping · Demo shop', 'Costs', 'Tracking']);
  expect(shipping.excerpts[1]!.text).toContain('free for orders above 50 EUR');
  // the page's navigation and footer are not its text
  expect(JSON.stringify(result.pages)).not.toContain('© Demo shop');
  expect(result.errors).toEqual([
    { url: `${base}/private/prices`, error: 'robots.txt does not allow it' },
    { url: `${base}/missing`, error: 'HTTP 404' },
  ]);
  expect(result.listed).not.toContain('https://elsewhere.example/page');
  expect(hits).not.toContain('GET /private/prices');
});

test('the next sync asks conditionally and keeps a page that did not change', async () => {
  const known = new Map([[`${base}/shipping`, { etag: '"ship-1"', lastModified: null }]]);
  const result = await crawl(`${base}/sitemap.xml`, limits(), known);
  expect(result.unchanged).toEqual([`${base}/shipping`]);
  expect(result.pages.map((p) => p.url)).toEqual([`${base}/returns`]);
  expect(hits).toContain('GET /shipping "ship-1"');
});

test('from one page, the pages of its host it links to, breadth first and bounded', async () => {
  const result = await crawl(`${base}/`, limits({ maxPages: 3 }));
  expect(result.listed).toEqual([`${base}/`, `${base}/shipping`, `${base}/returns`]);
  expect(result.pages.map((p) => p.title)).toEqual(['Demo shop · Demo shop', 'Shipping · Demo shop', 'Returns · Demo shop']);
});

test('private and local addresses are refused unless allowed, in any spelling', async () => {
  const port = (server.address() as AddressInfo).port;
  for (const url of [
    `${base}/`,
    `http://localhost:${port}/`,
    `http://[::1]:${port}/`,
    `http://2130706433:${port}/`,
    'http://169.254.169.254/latest/meta-data/',
  ]) {
    await expect(safeFetch(url, limits({ allowPrivate: false })), url).rejects.toThrow(/private or local address/);
  }
  const refused = await crawl(`${base}/sitemap.xml`, limits({ allowPrivate: false }));
  expect(refused.pages).toEqual([]);
  expect(refused.errors[0]!.error).toMatch(/private or local address/);
});

test('only http(s), also through a redirect; redirects and bytes are bounded', async () => {
  await expect(safeFetch('file:///etc/passwd', limits())).rejects.toThrow(FetchRefused);
  await expect(safeFetch(`${base}/to-file`, limits())).rejects.toThrow(/only http and https/);
  await expect(safeFetch(`${base}/loop`, limits())).rejects.toThrow(/too many redirects/);
  await expect(safeFetch(`${base}/huge`, limits())).rejects.toThrow(/larger than 100000 bytes/);
});
