import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CODING_SUFFIX, CODINGS, pickCoding, type Coding } from './accept-encoding.ts';
import { fileEtag, matchesIfNoneMatch } from './file-etag.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

export interface SendFileOptions {
  /** `Cache-Control` of the response (default `no-cache`: revalidate every time, cheap with the ETag) */
  cacheControl?: string;
  /** `Access-Control-Allow-Origin: *`, for files other origins load */
  cors?: boolean;
  /** files of `root` answered as missing ones (given the decoded path), e.g. source maps in production */
  hidden?: (file: string) => boolean;
}

/** What a request for a static file is answered: a status, its headers and, for a 200, the file to stream. */
export interface FileAnswer {
  status: 200 | 304;
  headers: Record<string, string | number>;
  /** the file whose bytes make the body (the precompressed copy when one was chosen) */
  file: string;
}

/** The request headers a static answer depends on. */
export interface FileRequest {
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

/**
 * How to answer a request for one file of `root` (never anything outside it): its content
 * type, a strong `ETag` (a matching `If-None-Match` gets 304 and no body) and, when the build
 * wrote a precompressed copy next to it (`x.js.br`, `x.js.gz`) that the client accepts, that
 * copy with its `Content-Encoding` (br before gzip: the first load is 18.0 kB in brotli, 20.1
 * kB in gzip, 60.3 kB as built); `x.js.br` itself is not served by name. Null when there is no
 * such file, so the caller can answer 404 or try something else.
 *
 * Not `@fastify/static`'s `preCompressed`: it tags files `W/"size-mtime"` (the same tag for
 * every encoding, and a different one on each instance built at another time), where Heed
 * promises a strong content tag per file and encoding (file-etag.ts), and it serves `x.js.br`
 * by its own name.
 *
 * @example
 * const answer = await fileAnswer('/srv/dist/widget', '/widget.js', { acceptEncoding: 'br' }, { cors: true });
 */
export async function fileAnswer(
  root: string,
  relativePath: string,
  req: FileRequest,
  opts: SendFileOptions = {},
): Promise<FileAnswer | null> {
  const path = resolveInside(root, relativePath);
  // a precompressed copy is reached through its file's URL and Accept-Encoding, not by name
  if (path === null || isPrecompressedCopy(path) || opts.hidden?.(path)) return null;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  const copies = await precompressedCopies(path);
  const coding = pickCoding(req.acceptEncoding, [...copies.keys()]);
  const sent = coding ? { path: path + CODING_SUFFIX[coding], info: copies.get(coding)! } : { path, info };
  // a file removed since its stat (a rebuild) is a missing file, not a failed request
  const etag = await fileEtag(sent.path, sent.info).catch(() => null);
  if (etag === null) return null;
  const headers = {
    etag,
    'cache-control': opts.cacheControl ?? 'no-cache',
    'x-content-type-options': 'nosniff',
    // caches must key on Accept-Encoding once the bytes depend on it
    ...(copies.size > 0 ? { vary: 'Accept-Encoding' } : {}),
    // the widget's script and chunks are loaded by customers' pages
    ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}),
  };
  if (matchesIfNoneMatch(req.ifNoneMatch, etag)) return { status: 304, headers, file: sent.path };
  return {
    status: 200,
    headers: {
      ...headers,
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': sent.info.size,
      ...(coding ? { 'content-encoding': coding } : {}),
    },
    file: sent.path,
  };
}

/**
 * Answers a Fastify request with a file of `root` (see `fileAnswer`); false when there is no
 * such file. HEAD gets the GET's headers and no body.
 *
 * @example if (!(await replyFile(request, reply, WIDGET_DIR, '/widget.js', { cors: true }))) reply.code(404).send('Not found');
 */
export async function replyFile(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  relativePath: string,
  opts: SendFileOptions = {},
): Promise<boolean> {
  const answer = await fileAnswer(root, relativePath, fileRequestOf(request.raw), opts);
  if (!answer) return false;
  reply.code(answer.status).headers(answer.headers);
  if (answer.status === 304 || request.method === 'HEAD') await reply.send();
  // a file removed between stat and read (a rebuild) ends this response, not the process
  else await reply.send(createReadStream(answer.file));
  return true;
}

/**
 * The same answer on a bare `node:http` server (the tests' CDN-like origin for the widget).
 * @example if (!(await sendFile(req, res, '/srv/dist/widget', '/widget.js', { cors: true }))) notFound(res);
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  relativePath: string,
  opts: SendFileOptions = {},
): Promise<boolean> {
  const answer = await fileAnswer(root, relativePath, fileRequestOf(req), opts);
  if (!answer) return false;
  res.writeHead(answer.status, answer.headers);
  if (answer.status === 304 || req.method === 'HEAD') {
    res.end();
    return true;
  }
  createReadStream(answer.file)
    .on('error', () => res.destroy())
    .pipe(res);
  return true;
}

/** The absolute path `urlPath` names inside `root`, or null: outside it, a broken `%` escape (`%E0%A4%A`), a NUL. */
function resolveInside(root: string, urlPath: string): string | null {
  const decoded = decodePath(urlPath);
  if (decoded === null) return null;
  const path = normalize(join(root, decoded));
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep) ? path : null;
}

function decodePath(urlPath: string): string | null {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\u0000') ? null : decoded;
  } catch {
    return null; // URIError
  }
}

const isPrecompressedCopy = (path: string) => Object.values(CODING_SUFFIX).some((suffix) => path.endsWith(suffix));

/** The precompressed copies the build wrote next to `path`, by coding. */
async function precompressedCopies(path: string): Promise<Map<Coding, Stats>> {
  const found = await Promise.all(
    CODINGS.map(async (coding) => [coding, await stat(path + CODING_SUFFIX[coding]).catch(() => null)] as const),
  );
  return new Map(found.filter((entry): entry is [Coding, Stats] => entry[1]?.isFile() === true));
}

function fileRequestOf(req: IncomingMessage): FileRequest {
  return { acceptEncoding: headerOf(req, 'accept-encoding'), ifNoneMatch: headerOf(req, 'if-none-match') };
}

/** A request header as one string (Node joins repeated `Accept-Encoding` with ", " already). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
