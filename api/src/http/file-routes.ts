import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { verifyVisitorToken } from '../auth/visitor-token.ts';
import { signingKeys } from '../auth/signing-keys.ts';
import { visitorTokenInvalid } from '../auth/visitor-refusals.ts';
import { signedFileLinkValid } from '../attachments/signed-link.ts';
import { UploadRefused, fileLimitOf, storeUpload, tooLarge, uploadTarget, type Uploader } from '../attachments/upload.ts';
import { Refusal, refuse, retryAfterSeconds } from '../errors/refusal.ts';
import { tooManyRequests } from '../limits/too-many-requests.ts';
import { clientAddressKey } from '../limits/address-key.ts';
import { consoleTokenOf, findOperatorSession } from '../operators/operator-sessions.ts';
import { originAllowed } from '../sites/origin-rule.ts';
import type { Services } from '../services.ts';
import type { UploadRefusalCode } from '../shared/attachment-kinds.ts';
import { applyCors } from './cors.ts';
import { sameOriginRequest } from '../trpc/console-procedure.ts';
import { REFUSAL_STATUS } from './errors.ts';

/** The status of each refusal of a file itself. */
const REFUSED_STATUS: Record<UploadRefusalCode, number> = {
  file_too_large: 413,
  message_files_too_large: 413,
  file_type_refused: 415,
  file_damaged: 422,
  file_empty: 422,
  attachments_off: 403,
};

/**
 * What a served file may do once opened: nothing. No script, no plugin, no frame, no request
 * but its own bytes, sandboxed as a page of its own origin: a file that slipped past the
 * inspection still cannot run on the API's origin.
 */
const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

const uploadQuery = z.object({ conversationId: z.uuid(), name: z.string().max(1000).default('file') });
const fileParams = z.object({ id: z.uuid() });
/** a file's own key (`k`, the thread's address), or an expiring signature (`x`, `s`: an export's link) */
const fileQuery = z.union([
  z.object({ k: z.string().min(1).max(64) }),
  z.object({ x: z.string().min(1).max(12), s: z.string().min(1).max(64) }),
]);

/**
 * `POST /files?conversationId=&name=` (the raw bytes as the body): a file for a conversation,
 * kept until the send that takes it (`message.send` / `console.conversations.reply` with
 * `attachmentIds`). The visitor sends `Authorization: Bearer <token>` from the host page (CORS
 * allows it); the console its session cookie from its own origin. 201 `{ attachment }`;
 * refusals answer `{ error: { code, message, limitBytes?, detected? } }`. The body is read only
 * after the caller, the conversation, the rate limits and the declared length were checked.
 *
 * `GET /files/:id?k=<key>`: the file, to whoever holds its address (an `<img>` on the host page
 * sends no token, so the address is the capability; 404 for a wrong key or a deleted file),
 * with `nosniff`, a download disposition for anything but images, and a CSP that lets nothing run.
 * @example await app.register(fileRoutes(services));
 */
export function fileRoutes(s: Services): (app: FastifyInstance) => Promise<void> {
  const keys = signingKeys(s.config);
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/files')) return;
      // an upload over the limits says when to try again: the page may read Retry-After
      if (request.headers.origin) reply.header('access-control-expose-headers', 'retry-after');
      await applyCors(request, reply);
    });
    // the widget's upload carries its token: the browser asks first (the hook above answers 204)
    app.options('/files', async (_request, reply) => reply);
    app.post('/files', async (request, reply) => {
      try {
        const query = uploadQuery.safeParse(request.query);
        if (!query.success) throw refuse('bad_request', 'invalid_query', 'conversationId (a UUID) and name are needed.');
        const uploader = await uploaderOf(s, keys, request);
        const target = await uploadTarget(s, query.data.conversationId, uploader);
        if ('visitorId' in uploader) assertOrigin(target.site.allowedOrigins, request.headers.origin);
        const limit = fileLimitOf(s, target.site);
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > limit) throw tooLarge(limit);
        if ('visitorId' in uploader) {
          const over = await s.limits.upload(uploader, clientAddressKey(request.raw, s.config), declared);
          if (over) throw tooManyRequests(over);
        }
        const bytes = await readBounded(request.raw, limit);
        if (bytes === null) {
          reply.header('connection', 'close');
          throw tooLarge(limit);
        }
        const attachment = await storeUpload(s, target, { name: query.data.name, bytes });
        return json(reply, 201, { attachment });
      } catch (err) {
        return answerUploadError(reply, err);
      }
    });
    const serve = async (request: FastifyRequest, reply: FastifyReply) => {
      const params = fileParams.safeParse(request.params);
      const query = fileQuery.safeParse(request.query);
      if (!params.success || !query.success) return missing(reply);
      const row = await s.db.attachment.findUnique({
        where: { id: params.data.id },
        select: { accessKey: true, storeKey: true, mime: true, name: true, sha256: true },
      });
      const q = query.data;
      const allowed = 'k' in q ? !!row && sameKey(row.accessKey, q.k) : signedFileLinkValid(keys, params.data.id, q);
      if (!row || !allowed) return missing(reply);
      const etag = `"${row.sha256}"`;
      const headers = fileHeaders(row, etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
      const bytes = await s.files.get(row.storeKey);
      if (!bytes) {
        s.logger.warn({ attachmentId: params.data.id }, 'attachment bytes missing from the file store');
        return missing(reply);
      }
      reply.code(200).headers({ ...headers, 'content-length': String(bytes.length) });
      return request.method === 'HEAD' ? reply.send() : reply.send(bytes);
    };
    app.get('/files/:id', serve);
    app.head('/files/:id', serve);
  };
}

/** The visitor of a valid token, or the signed-in operator of a console page on this origin. */
async function uploaderOf(s: Services, keys: ReturnType<typeof signingKeys>, request: FastifyRequest): Promise<Uploader> {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const claims = verifyVisitorToken(keys, header.slice(7));
    if (!claims) throw visitorTokenInvalid();
    const exists = await s.db.visitor.count({ where: { id: claims.visitorId, siteId: claims.siteId } });
    if (!exists) throw visitorTokenInvalid();
    return { visitorId: claims.visitorId, siteId: claims.siteId };
  }
  const token = consoleTokenOf(request.headers.cookie);
  const staff = token ? await findOperatorSession(s.db, token) : null;
  if (!staff) throw visitorTokenInvalid();
  if (!sameOriginRequest({ origin: request.headers.origin ?? null, req: request.raw, services: s }))
    throw refuse('forbidden', 'console_origin', 'Console changes must come from the console page itself.');
  return { operatorId: staff.operatorId, sites: staff.sites };
}

/** The visitor's page must be one the site allows, as for every visitor call. */
function assertOrigin(allowed: readonly string[], origin: string | undefined): void {
  if (!originAllowed(allowed, origin ?? null)) {
    throw refuse('forbidden', 'origin_not_allowed', `The page's origin ${origin} is not among this site's allowed origins.`);
  }
}

/** The body as bytes, or null past `limit` (the rest is not read). */
async function readBounded(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const sameKey = (stored: string, given: string): boolean => {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Images show where they are put; anything else downloads under its name. */
function fileHeaders(row: { mime: string; name: string }, etag: string): Record<string, string> {
  const inline = row.mime.startsWith('image/');
  return {
    'content-type': row.mime === 'text/plain' ? 'text/plain; charset=utf-8' : row.mime,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; ${dispositionName(row.name)}`,
    'content-security-policy': FILE_CSP,
    // the host page (another origin) shows the widget's images
    'cross-origin-resource-policy': 'cross-origin',
    // the bytes under an id never change; the visitor's browser alone keeps them
    'cache-control': 'private, max-age=86400',
    etag,
  };
}

/** `filename="…"` for old clients (ASCII, no quotes) and `filename*=` with the whole name (RFC 6266). */
function dispositionName(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const json = (reply: FastifyReply, status: number, body: unknown) =>
  reply.code(status).headers({ 'content-type': 'application/json', 'cache-control': 'no-store' }).send(JSON.stringify(body));

const missing = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not found');

/** A refusal in the upload's shape: `{ error: { code, message, … } }`; anything else is the server's fault. */
function answerUploadError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof UploadRefused)
    return json(reply, REFUSED_STATUS[err.code], { error: { code: err.code, message: err.message, ...err.extra } });
  if (err instanceof Refusal) {
    if (err.retryAfterMs !== undefined) reply.header('retry-after', String(retryAfterSeconds(err.retryAfterMs)));
    const code = err.kind === 'too_many_requests' ? 'rate_limited' : (err.reason ?? err.kind);
    const wait = err.retryAfterMs === undefined ? {} : { retryAfterMs: err.retryAfterMs };
    return json(reply, REFUSAL_STATUS[err.kind], { error: { code, message: err.message, ...wait } });
  }
  throw err;
}
