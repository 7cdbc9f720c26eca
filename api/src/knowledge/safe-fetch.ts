import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './ip-ranges.ts';

/** How a crawl may fetch: every limit is per request. */
export interface FetchLimits {
  /** reach private, loopback and link-local addresses too (intranet docs, tests): KNOWLEDGE_ALLOW_PRIVATE=1 */
  allowPrivate: boolean;
  /** the body is cut off (and the page refused) past this many bytes */
  maxBytes: number;
  /** the whole request, redirects included */
  timeoutMs: number;
  /** redirects followed, each checked like the first request */
  maxRedirects?: number;
}

/** A fetched document. `notModified`: the validators sent still hold (no body). */
export interface Fetched {
  /** the URL that answered, after redirects */
  url: string;
  status: number;
  contentType: string;
  body: string;
  etag: string | null;
  lastModified: string | null;
  notModified: boolean;
}

/** Why a fetch was refused or failed, in words an owner can act on (a source's per-page error). */
export class FetchRefused extends Error {
  override name = 'FetchRefused';
}

export const CRAWLER_USER_AGENT = 'HeedKnowledgeBot/1.0 (+site knowledge for the site owner)';

/**
 * GET for a crawl that cannot be turned against the machine it runs on: http(s) only; the host's
 * addresses are checked after DNS resolution and the connection goes to a checked address (no
 * rebinding between check and connect); every redirect is checked the same way; no cookies,
 * no credentials, nothing of Heed's own sent; the body is bounded in bytes and the request in
 * time. `validators` make it conditional (ETag / Last-Modified).
 * @example await safeFetch('https://shop.example/sitemap.xml', limits)
 */
export async function safeFetch(
  url: string,
  limits: FetchLimits,
  validators: { etag?: string | null; lastModified?: string | null } = {},
): Promise<Fetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = parseTarget(url);
  for (let hop = 0; ; hop++) {
    const answer = await get(current, limits, validators, signal);
    if (answer.redirect === null) return answer.fetched;
    if (hop >= (limits.maxRedirects ?? 5)) throw new FetchRefused(`too many redirects (more than ${limits.maxRedirects ?? 5})`);
    current = parseTarget(new URL(answer.redirect, current).href);
  }
}

function parseTarget(raw: string): URL {
  if (!URL.canParse(raw)) throw new FetchRefused('not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`only http and https are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new FetchRefused('a URL with credentials in it is not fetched');
  url.hash = '';
  return url;
}

/** DNS resolution that answers only addresses a crawl may reach: the socket connects to what it answers. */
const checkedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const allowed = addresses.filter((a) => allowPrivate || isPublicAddress(a.address));
      if (allowed.length === 0) {
        return callback(new FetchRefused(`${hostname} resolves to a private or local address, which is not fetched`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };

function get(
  url: URL,
  limits: FetchLimits,
  validators: { etag?: string | null; lastModified?: string | null },
  signal: AbortSignal,
): Promise<{ redirect: string | null; fetched: Fetched }> {
  // an address literal is checked here: it is never looked up
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!limits.allowPrivate && /^[\d.]+$|:/.test(literal) && !isPublicAddress(literal)) {
    return Promise.reject(new FetchRefused(`${url.hostname} is a private or local address, which is not fetched`));
  }
  const client = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {
    'user-agent': CRAWLER_USER_AGENT,
    accept: 'text/html,application/xhtml+xml,application/xml,text/xml,text/plain;q=0.8,*/*;q=0.5',
  };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { headers, signal, lookup: checkedLookup(limits.allowPrivate), agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location) {
        res.resume();
        return resolve({ redirect: location, fetched: undefined as never });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) return req.destroy(new FetchRefused(`larger than ${limits.maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          redirect: null,
          fetched: {
            url: url.href,
            status,
            contentType: String(res.headers['content-type'] ?? '').toLowerCase(),
            body: Buffer.concat(chunks).toString('utf8'),
            etag: typeof res.headers.etag === 'string' ? res.headers.etag : null,
            lastModified: typeof res.headers['last-modified'] === 'string' ? res.headers['last-modified'] : null,
            notModified: status === 304,
          },
        }),
      );
    });
    req.on('error', (err) =>
      reject(err.name === 'AbortError' || err.name === 'TimeoutError' ? new FetchRefused(`no answer within ${limits.timeoutMs} ms`) : err),
    );
  });
}
