import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { conversationsCsv } from '../console/export/conversations-csv.ts';
import {
  conversationsExportQuery,
  describeQueryError,
  overviewExportQuery,
  queryObject,
  visitorExportQuery,
} from '../console/export/export-query.ts';
import { erasureSubjectOf } from '../console/visitors/erasure.ts';
import { consoleBaseUrl } from '../trpc/console-procedure.ts';
import { exportVisitorData } from '../privacy/export-visitor.ts';
import { overviewCsv } from '../console/export/overview-csv.ts';
import { overviewSeries } from '../console/overview/series.ts';
import { consoleTokenOf, findOperatorSession, type Staff } from '../operators/operator-sessions.ts';
import type { Services } from '../services.ts';

/** Every export lives under this path (served beside the console at /admin). */
export const CONSOLE_EXPORT_PREFIX = '/admin/export/';

/**
 * One console download: its query (zod, the console's own input) and what it sends. `staff`
 * carries the operator's site scope (`staff.sites`), the one rule every console read obeys
 * whatever its transport: an export cannot be written without it.
 */
interface ConsoleExport<Q> {
  query: z.ZodType<Q>;
  /** the download's file name, without date and extension */
  fileName(query: Q): string;
  /** `csv` unless said (the content type and the name's extension) */
  format?: 'csv' | 'json';
  /**
   * Whether what the query names is within the operator's sites (404 otherwise), for a download
   * that names one thing: HEAD answers by it without building the body
   */
  exists?(s: Services, staff: Staff, query: Q): Promise<boolean>;
  /** the download; null: what the query names is not within the operator's sites (404) */
  body(s: Services, staff: Staff, query: Q, base: string): Promise<string | null> | AsyncIterable<string>;
}

const defineExport = <Q>(e: ConsoleExport<Q>): ConsoleExport<unknown> => e as ConsoleExport<unknown>;

/**
 * Every console download by path: `GET /admin/export/<name>`. Tests walk this list, so a
 * download added here is checked for the site scope like every console procedure.
 */
export const CONSOLE_EXPORTS: Readonly<Record<string, ConsoleExport<unknown>>> = {
  /** the conversation list as the operator sees it; streamed page after page (keyset), so its memory does not grow with the list */
  'conversations.csv': defineExport({
    query: conversationsExportQuery,
    fileName: () => 'heed-conversations',
    body: (s, staff, query) => conversationsCsv(s, { staff, ...query }),
  }),
  /** the overview's figures over the operator's sites (or one of them) */
  'overview.csv': defineExport({
    query: overviewExportQuery,
    fileName: (query) => `heed-overview-${query.range}`,
    body: async (s, staff, query) => overviewCsv(await overviewSeries(s.db, { ...query, scope: staff.sites, allComments: true })),
  }),
  /** everything Heed holds about a conversation's visitor (privacy/export-visitor.ts), for an access request */
  'visitor.json': defineExport({
    query: visitorExportQuery,
    fileName: () => 'heed-visitor-data',
    format: 'json',
    exists: async (s, staff, query) => !!(await erasureSubjectOf(s.db, { conversationId: query.conversationId, sites: staff.sites })),
    body: async (s, staff, query, base) => {
      const found = await erasureSubjectOf(s.db, { conversationId: query.conversationId, sites: staff.sites });
      if (!found) return null;
      const doc = await exportVisitorData(s.db, s.config, { siteId: found.siteId, subject: found.subject, baseUrl: base });
      return doc ? `${JSON.stringify(doc, null, 2)}\n` : null;
    },
  }),
};

/**
 * `GET /admin/export/conversations.csv?siteId=&filter=&search=` and
 * `GET /admin/export/overview.csv?range=&siteId=`: downloads for a signed-in operator (the
 * console's session cookie, as every console procedure; a plain link works, no script needed),
 * over the operator's sites only: another site's id counts nothing, exactly like an unknown one.
 * Signed out → 401; a query the console would not send → 400 naming the field; other paths → 404.
 *
 * @example await app.register(consoleExports(services));
 */
export function consoleExports(s: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    app.all(`${CONSOLE_EXPORT_PREFIX}*`, async (request, reply) => {
      const text = (status: number, body: string, headers: Record<string, string> = {}) =>
        reply
          .code(status)
          .headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers })
          .send(body);
      if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed', { allow: 'GET, HEAD' });
      const token = consoleTokenOf(request.headers.cookie);
      const staff = token ? await findOperatorSession(s.db, token) : null;
      if (!staff) return text(401, 'Sign in to the console first.');

      const url = new URL(request.url, 'http://x');
      const name = url.pathname.slice(CONSOLE_EXPORT_PREFIX.length);
      const download = Object.hasOwn(CONSOLE_EXPORTS, name) ? CONSOLE_EXPORTS[name] : undefined;
      if (!download) return text(404, 'Not found');
      const parsed = download.query.safeParse(queryObject(url.searchParams));
      if (!parsed.success) return text(400, `Bad request: ${describeQueryError(parsed.error)}`);

      const headers = downloadHeaders(download.fileName(parsed.data), download.format ?? 'csv');
      if (request.method === 'HEAD') {
        if (download.exists && !(await download.exists(s, staff, parsed.data))) return text(404, 'Not found');
        return reply.headers(headers).send();
      }
      const body = download.body(s, staff, parsed.data, consoleBaseUrl({ req: request.raw, services: s }));
      // Fastify pipes a stream, waiting for `drain` between pages; when the client goes away it
      // destroys the readable, which returns the generator: no further page is read.
      if (typeof body === 'object' && Symbol.asyncIterator in body) return reply.headers(headers).send(Readable.from(body));
      const whole = await body;
      if (whole === null) return text(404, 'Not found');
      return reply.headers(headers).send(whole);
    });
  };
}

/** A download, named with today's UTC date, never cached (it holds conversation content). */
function downloadHeaders(base: string, format: 'csv' | 'json'): Record<string, string> {
  const day = new Date().toISOString().slice(0, 10);
  return {
    'content-type': format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${base}-${day}.${format}"`,
    'cache-control': 'no-store',
  };
}
