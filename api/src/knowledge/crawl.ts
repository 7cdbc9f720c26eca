import { chunkSections, type Excerpt } from './chunk-sections.ts';
import { extractPage } from './extract-page.ts';
import { robotsAllow, robotsRules, type RobotsRules } from './robots.ts';
import { FetchRefused, safeFetch, type Fetched, type FetchLimits } from './safe-fetch.ts';
import { sitemapEntries } from './sitemap.ts';

export interface CrawlLimits extends FetchLimits {
  /** pages kept from one source */
  maxPages: number;
  /** the whole crawl; the pages not reached by then wait for the next sync */
  totalTimeMs: number;
}

/** A page read whole: its title and its excerpts, with the validators for the next sync. */
export interface CrawledPage {
  url: string;
  title: string;
  excerpts: Excerpt[];
  etag: string | null;
  lastModified: string | null;
}

export interface CrawlResult {
  pages: CrawledPage[];
  /** pages whose validators still held (304): kept as they are */
  unchanged: string[];
  /** pages that could not be read, each with why (what the owner sees per source) */
  errors: { url: string; error: string }[];
  /** every page the source lists now (read, unchanged or failed): the others have gone */
  listed: string[];
}

/** Sitemaps of a sitemap index read at most (each may list 50,000 pages). */
const SITEMAPS_MAX = 20;

/**
 * Reads a source: a sitemap (or sitemap index) and the pages it lists, or a page and the pages
 * of the same host it links to, breadth first. Stays on the start URL's host, obeys its
 * robots.txt, fetches one page at a time within `limits` (each page and the whole crawl), and
 * asks conditionally for pages it knows (`known`: their ETag / Last-Modified).
 * @example await crawl('https://shop.example/sitemap.xml', limits)
 */
export async function crawl(
  start: string,
  limits: CrawlLimits,
  known: ReadonlyMap<string, { etag: string | null; lastModified: string | null }> = new Map(),
): Promise<CrawlResult> {
  const deadline = Date.now() + limits.totalTimeMs;
  const result: CrawlResult = { pages: [], unchanged: [], errors: [], listed: [] };
  const host = new URL(start).host;
  const first = await fetchPage(start, limits, known.get(start));
  if (typeof first === 'string') return { ...result, errors: [{ url: start, error: first }], listed: [start] };
  const robotsUrl = new URL('/robots.txt', start).href;
  const robots = await readRobots(robotsUrl, limits);
  if (typeof robots === 'string') return { ...result, errors: [{ url: robotsUrl, error: robots }] };
  const sameHost = (u: string) => URL.canParse(u) && new URL(u).host === host;
  const allowed = (u: string) => {
    const url = new URL(u);
    return robotsAllow(robots, url.pathname + url.search);
  };

  const listing = first.status === 200 ? sitemapEntries(first.body) : null;
  const queue: string[] = listing ? await sitemapPages(listing, limits, deadline) : [start];
  const seen = new Set(queue);
  while (queue.length > 0 && result.listed.length < limits.maxPages && Date.now() < deadline) {
    const url = queue.shift()!;
    if (!sameHost(url)) continue;
    result.listed.push(url);
    if (!allowed(url)) {
      result.errors.push({ url, error: 'robots.txt does not allow it' });
      continue;
    }
    const fetched = url === start && !listing ? first : await fetchPage(url, limits, known.get(url));
    if (typeof fetched === 'string') {
      result.errors.push({ url, error: fetched });
      continue;
    }
    if (fetched.notModified) {
      result.unchanged.push(url);
      continue;
    }
    const page = readPage(fetched);
    if (typeof page === 'string') {
      result.errors.push({ url, error: page });
      continue;
    }
    result.pages.push({ ...page.page, url });
    // from one page, the pages of its host it links to (a sitemap says which pages there are)
    if (!listing) for (const link of page.links) if (sameHost(link) && !seen.has(link)) seen.add(link), queue.push(link);
  }
  return result;
}

/** A fetch, or why it failed in words. */
async function fetchPage(
  url: string,
  limits: FetchLimits,
  validators?: { etag: string | null; lastModified: string | null },
): Promise<Fetched | string> {
  try {
    return await safeFetch(url, limits, validators);
  } catch (err) {
    return err instanceof FetchRefused ? err.message : `could not be fetched (${(err as Error).message.slice(0, 120)})`;
  }
}

function readPage(fetched: Fetched): { page: Omit<CrawledPage, 'url'>; links: string[] } | string {
  if (fetched.status !== 200) return `HTTP ${fetched.status}`;
  const html = /html|xml/.test(fetched.contentType) || fetched.contentType === '';
  const plain = fetched.contentType.startsWith('text/plain');
  if (!html && !plain) return `not a page (${fetched.contentType.split(';')[0]})`;
  const extracted = plain
    ? { title: fetched.url, sections: [{ heading: fetched.url, text: fetched.body }], links: [] }
    : extractPage(fetched.body, fetched.url);
  const excerpts = chunkSections(extracted.sections);
  if (excerpts.length === 0) return 'no text found';
  return { page: { title: extracted.title, excerpts, etag: fetched.etag, lastModified: fetched.lastModified }, links: extracted.links };
}

/**
 * robots.txt as RFC 9309 reads a failure: none (4xx) allows everything; one that cannot be read
 * (5xx, no answer) allows nothing, said in words.
 */
async function readRobots(url: string, limits: FetchLimits): Promise<RobotsRules | string> {
  const fetched = await fetchPage(url, limits);
  const unreadable = (why: string) => `robots.txt could not be read (${why}): nothing is fetched until it can`;
  if (typeof fetched === 'string') return unreadable(fetched);
  if (fetched.status >= 400 && fetched.status < 500) return { allow: [], disallow: [] };
  return fetched.status === 200 ? robotsRules(fetched.body) : unreadable(`HTTP ${fetched.status}`);
}

/** The pages of a sitemap, reading the sitemaps of an index (one level, bounded). */
async function sitemapPages(listing: { pages: string[]; sitemaps: string[] }, limits: CrawlLimits, deadline: number): Promise<string[]> {
  const pages = [...listing.pages];
  for (const url of listing.sitemaps.slice(0, SITEMAPS_MAX)) {
    if (pages.length >= limits.maxPages || Date.now() >= deadline) break;
    const fetched = await fetchPage(url, limits);
    if (typeof fetched !== 'string' && fetched.status === 200) pages.push(...(sitemapEntries(fetched.body)?.pages ?? []));
  }
  return [...new Set(pages)];
}
