import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpServer } from '../../api/src/http/server.ts';
import { siteRoutes } from '../../api/src/http/site-routes.ts';
import { listen, TestHeed } from '../support/harness.ts';

/**
 * The widget files as a browser on a customer's page receives them: precompressed (brotli,
 * else gzip) when the browser says it can decode them, with a strong ETag per file and
 * encoding, a loader that is revalidated and chunks cached for a year, and no source maps in
 * production. Raw `node:http` requests, because `fetch` decodes bodies and hides the encoding.
 * Needs the built widget (`npm test` builds it first).
 */
const WIDGET_DIR = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
const BOOT = `/widget-chunks/${readdirSync(`${WIDGET_DIR}widget-chunks`).find((f) => /^boot-.*\.js$/.test(f))}`;
const onDisk = (path: string) => readFileSync(`${WIDGET_DIR}${path.slice(1)}`);
const BROWSER = 'gzip, deflate, br, zstd';
/** Byte equality without a 60 KB element-by-element diff when it fails. */
const expectSameBytes = (actual: Buffer, expected: Buffer) =>
  expect(actual.equals(expected), `${actual.length} bytes, expected ${expected.length} others`).toBe(true);

let heed: TestHeed;
/** the same stack's services behind `siteRoutes({ production: true })`, as `npm start` runs with NODE_ENV=production */
let production: { server: Server; url: string };

beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, site: true });
  const server = await createHttpServer(heed.services, siteRoutes({ production: true }));
  production = { server, url: `http://127.0.0.1:${await listen(server)}` };
});
afterAll(async () => {
  production?.server.closeAllConnections();
  await new Promise((r) => (production ? production.server.close(r) : r(undefined)));
  await heed?.stop();
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these headers; the body as sent on the wire. */
function get(path: string, headers: Record<string, string> = {}, opts: { method?: string; base?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${opts.base ?? heed.url}${path}`, { method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject).end();
  });
}

describe('encoding', () => {
  test.each(['/widget.js', BOOT])('%s in brotli, gzip and as built decodes to the same bytes, each with its own length', async (path) => {
    const identity = await get(path);
    const br = await get(path, { 'accept-encoding': BROWSER });
    const gzip = await get(path, { 'accept-encoding': 'gzip' });

    expect(identity.headers['content-encoding']).toBeUndefined();
    expectSameBytes(identity.body, onDisk(path));
    expect(br.headers['content-encoding']).toBe('br');
    expectSameBytes(brotliDecompressSync(br.body), identity.body);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expectSameBytes(gunzipSync(gzip.body), identity.body);
    for (const res of [identity, br, gzip]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect(br.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length).toBeLessThan(identity.body.length);
  });

  test('br;q=0 refuses brotli: gzip is sent', async () => {
    const res = await get(BOOT, { 'accept-encoding': 'br;q=0, gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expectSameBytes(gunzipSync(res.body), onDisk(BOOT));
  });

  test('a client that names no coding Heed has gets the file as built', async () => {
    for (const accept of ['identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const res = await get(BOOT, { 'accept-encoding': accept });
      expect({ accept, encoding: res.headers['content-encoding'] }).toEqual({ accept, encoding: undefined });
      expectSameBytes(res.body, onDisk(BOOT));
    }
  });

  test('the precompressed copies are not files of their own', async () => {
    for (const path of [`${BOOT}.br`, `${BOOT}.gz`, '/widget.js.br', `${BOOT.replace(/\.js$/, '')}%2Ejs%2Ebr`]) {
      expect({ path, status: (await get(path, { 'accept-encoding': BROWSER })).status }).toEqual({ path, status: 404 });
    }
  });
});

describe('caching', () => {
  test('the loader is revalidated on every use; chunks are cached for a year', async () => {
    expect((await get('/widget.js', { 'accept-encoding': BROWSER })).headers['cache-control']).toBe('no-cache');
    expect((await get(BOOT, { 'accept-encoding': BROWSER })).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('each file and encoding has its own strong ETag, stable across requests', async () => {
    const tags = await Promise.all(
      [undefined, 'gzip', 'br'].map(async (accept) => (await get('/widget.js', accept ? { 'accept-encoding': accept } : {})).headers.etag),
    );
    for (const tag of tags) expect(tag).toMatch(/^"[\w-]{22}"$/);
    expect(new Set(tags).size).toBe(3);
    expect((await get('/widget.js', { 'accept-encoding': 'br' })).headers.etag).toBe(tags[2]);
    expect((await get(BOOT, { 'accept-encoding': 'br' })).headers.etag).not.toBe(tags[2]);
  });

  test('If-None-Match with the current ETag answers 304 with no body; another tag or encoding gets the file', async () => {
    const first = await get('/widget.js', { 'accept-encoding': BROWSER });
    const etag = first.headers.etag!;

    const again = await get('/widget.js', { 'accept-encoding': BROWSER, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.headers.vary).toBe('Accept-Encoding');

    // a weak form of the tag, and a list holding it, match too (RFC 9110 weak comparison)
    expect((await get('/widget.js', { 'accept-encoding': BROWSER, 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('/widget.js', { 'accept-encoding': BROWSER, 'if-none-match': '"other"' })).status).toBe(200);
    // the brotli copy's tag does not validate a gzip response
    const gzip = await get('/widget.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expectSameBytes(gunzipSync(gzip.body), onDisk('/widget.js'));
  });

  test('HEAD answers the same headers as GET and no body', async () => {
    const got = await get(BOOT, { 'accept-encoding': BROWSER });
    const head = await get(BOOT, { 'accept-encoding': BROWSER }, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-length',
      'content-encoding',
      'content-type',
      'etag',
      'vary',
      'cache-control',
      'access-control-allow-origin',
    ]) {
      expect({ name, value: head.headers[name] }).toEqual({ name, value: got.headers[name] });
    }
    expect((await get(BOOT, { 'if-none-match': got.headers.etag!, 'accept-encoding': BROWSER }, { method: 'HEAD' })).status).toBe(304);
  });
});

describe('source maps', () => {
  test('the built JS does not name its source map, so no browser asks for one', () => {
    for (const path of ['/widget.js', BOOT]) expect(onDisk(path).toString()).not.toContain('sourceMappingURL');
  });

  test('in production every map answers 404, encoded names included', async () => {
    for (const path of ['/widget.js.map', `${BOOT}.map`, `${BOOT}%2Emap`]) {
      expect({ path, status: (await get(path, {}, { base: production.url })).status }).toEqual({ path, status: 404 });
    }
    // the widget itself is still served there
    expect((await get(BOOT, { 'accept-encoding': BROWSER }, { base: production.url })).headers['content-encoding']).toBe('br');
  });

  test('outside production the maps are served, uncompressed, for debugging', async () => {
    for (const path of ['/widget.js.map', `${BOOT}.map`]) {
      const res = await get(path, { 'accept-encoding': BROWSER });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString()).version).toBe(3);
    }
  });
});
