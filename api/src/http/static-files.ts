import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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

/**
 * Serves one file of `root` (never anything outside it) with its content type. Returns
 * false when there is no such file, so the caller can answer 404 or try something else.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  relativePath: string,
  opts: { cacheControl?: string; cors?: boolean } = {},
): Promise<boolean> {
  const decoded = decodePath(relativePath);
  if (decoded === null) return false;
  const path = normalize(join(root, decoded));
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return false;
  res.writeHead(200, {
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': opts.cacheControl ?? 'no-cache',
    'x-content-type-options': 'nosniff',
    // the widget's script and chunks are loaded by customers' pages
    ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}),
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  // a file removed between stat and read (a rebuild) ends this response, not the process
  createReadStream(path)
    .on('error', () => res.destroy())
    .pipe(res);
  return true;
}

/** The file path a URL path names, or null when it names none: a broken `%` escape (`%E0%A4%A`) or a NUL. */
function decodePath(urlPath: string): string | null {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\u0000') ? null : decoded;
  } catch {
    return null; // URIError
  }
}
