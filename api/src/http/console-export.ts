import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { conversationsCsv } from '../console/export/conversations-csv.ts';
import { conversationsExportQuery, describeQueryError, overviewExportQuery, queryObject } from '../console/export/export-query.ts';
import { overviewCsv } from '../console/export/overview-csv.ts';
import { overviewSeries } from '../console/overview/series.ts';
import { consoleTokenOf, findOperatorSession, type Staff } from '../operators/operator-sessions.ts';
import type { Services } from '../services.ts';

/** Every export lives under this path (served beside the console at /admin). */
export const CONSOLE_EXPORT_PREFIX = '/admin/export/';

/**
 * `GET /admin/export/conversations.csv?siteId=&filter=&search=` and
 * `GET /admin/export/overview.csv?range=&siteId=`: downloads for a signed-in operator (the
 * console's session cookie, as every console procedure; a plain link works, no script needed).
 * Signed out → 401; a query the console would not send → 400 naming the field; other paths → 404.
 * The conversation export streams page after page (keyset), so its memory does not grow with
 * the number of conversations.
 */
export function consoleExportRoute(s: Services): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const text = (status: number, body: string, headers: Record<string, string> = {}) =>
      void res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Method not allowed', { allow: 'GET, HEAD' });
    const token = consoleTokenOf(req.headers.cookie);
    const staff = token ? await findOperatorSession(s.db, token) : null;
    if (!staff) return text(401, 'Sign in to the console first.');

    const url = new URL(req.url ?? '/', 'http://x');
    const params = queryObject(url.searchParams);
    const parse = <T>(schema: z.ZodType<T>): T | null => {
      const parsed = schema.safeParse(params);
      if (parsed.success) return parsed.data;
      text(400, `Bad request: ${describeQueryError(parsed.error)}`);
      return null;
    };
    const name = url.pathname.slice(CONSOLE_EXPORT_PREFIX.length);
    if (name === 'conversations.csv') {
      const query = parse(conversationsExportQuery);
      if (query) await sendConversations(s, staff, query, req, res);
      return;
    }
    if (name === 'overview.csv') {
      const query = parse(overviewExportQuery);
      if (!query) return;
      const body = overviewCsv(await overviewSeries(s.db, query));
      res.writeHead(200, csvHeaders(`heed-overview-${query.range}`));
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    text(404, 'Not found');
  };
}

async function sendConversations(
  s: Services,
  staff: Staff,
  query: z.infer<typeof conversationsExportQuery>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  res.writeHead(200, csvHeaders('heed-conversations'));
  if (req.method === 'HEAD') return void res.end();
  // pipeline waits for `drain` between pages and, when the client goes away, destroys the
  // readable, which returns the generator: no further page is read.
  await pipeline(Readable.from(conversationsCsv(s, { staff, ...query })), res).catch((err: unknown) => {
    if (res.destroyed && (err as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw err;
  });
}

/** A download, named with today's UTC date, never cached (it holds conversation content). */
function csvHeaders(base: string): Record<string, string> {
  const day = new Date().toISOString().slice(0, 10);
  return {
    'content-type': 'text/csv; charset=utf-8; header=present',
    'content-disposition': `attachment; filename="${base}-${day}.csv"`,
    'cache-control': 'no-store',
  };
}
