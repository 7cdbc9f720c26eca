import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { conversationsCsv } from '../console/export/conversations-csv.ts';
import { conversationsExportQuery, describeQueryError, overviewExportQuery, queryObject } from '../console/export/export-query.ts';
import { overviewCsv } from '../console/export/overview-csv.ts';
import { overviewSeries } from '../console/overview/series.ts';
import { consoleTokenOf, findOperatorSession, type Staff } from '../operators/operator-sessions.ts';
import type { Services } from '../services.ts';

/** Every export lives under this path (served beside the console at /admin). */
const CONSOLE_EXPORT_PREFIX = '/admin/export/';

/**
 * `GET /admin/export/conversations.csv?siteId=&filter=&search=` and
 * `GET /admin/export/overview.csv?range=&siteId=`: downloads for a signed-in operator (the
 * console's session cookie, as every console procedure; a plain link works, no script needed).
 * Signed out → 401; a query the console would not send → 400 naming the field; other paths → 404.
 * The conversation export streams page after page (keyset), so its memory does not grow with
 * the number of conversations.
 *
 * @example await app.register(consoleExports(services));
 */
export function consoleExports(s: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    app.all(`${CONSOLE_EXPORT_PREFIX}*`, async (request, reply) => {
      const text = (status: number, body: string, headers: Record<string, string> = {}) =>
        reply.code(status).headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).send(body);
      if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed', { allow: 'GET, HEAD' });
      const token = consoleTokenOf(request.headers.cookie);
      const staff = token ? await findOperatorSession(s.db, token) : null;
      if (!staff) return text(401, 'Sign in to the console first.');

      const url = new URL(request.url, 'http://x');
      const params = queryObject(url.searchParams);
      const parse = <T>(schema: z.ZodType<T>): { ok: true; query: T } | { ok: false; error: string } => {
        const parsed = schema.safeParse(params);
        return parsed.success ? { ok: true, query: parsed.data } : { ok: false, error: `Bad request: ${describeQueryError(parsed.error)}` };
      };
      const name = url.pathname.slice(CONSOLE_EXPORT_PREFIX.length);
      if (name === 'conversations.csv') {
        const parsed = parse(conversationsExportQuery);
        return parsed.ok ? sendConversations(s, staff, parsed.query, request, reply) : text(400, parsed.error);
      }
      if (name === 'overview.csv') {
        const parsed = parse(overviewExportQuery);
        if (!parsed.ok) return text(400, parsed.error);
        const body = overviewCsv(await overviewSeries(s.db, parsed.query));
        return reply.headers(csvHeaders(`heed-overview-${parsed.query.range}`)).send(request.method === 'HEAD' ? undefined : body);
      }
      return text(404, 'Not found');
    });
  };
}

function sendConversations(s: Services, staff: Staff, query: z.infer<typeof conversationsExportQuery>, request: FastifyRequest, reply: FastifyReply) {
  reply.headers(csvHeaders('heed-conversations'));
  if (request.method === 'HEAD') return reply.send();
  // Fastify pipes the stream, waiting for `drain` between pages; when the client goes away it
  // destroys the readable, which returns the generator: no further page is read.
  return reply.send(Readable.from(conversationsCsv(s, { staff, ...query })));
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
