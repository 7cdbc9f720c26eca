import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../services.ts';
import { WindowLimiters } from '../limits/window-limiters.ts';
import { apiKeyFor } from '../proactive/api-keys.ts';
import { sendServerMessage, serverMessageInput } from '../proactive/server-message.ts';
import { wellFormed } from '../db/well-formed.ts';
import { consoleBaseUrl } from '../trpc/console-procedure.ts';
import { answerVisitorData, subjectOf, VISITOR_DATA_PATH } from './site-visitor-data.ts';

/** `POST /api/v1/sites/:siteKey/messages` lives under this prefix. */
const SITE_MESSAGES_PREFIX = '/api/v1/sites/';

/** A body is a user id and 2,000 characters at most: 16 KB leaves room for JSON escapes, nothing more. */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * Per key: a message a second on average, in bursts of 60 a minute. A site's server sending
 * more than that is looping, or sending what belongs in a newsletter, not a conversation.
 */
const PER_KEY = { points: 60, seconds: 60 };

/**
 * The site's server API (`Authorization: Bearer heed_sk_…`, a site API key created in the
 * console). Visitors' data: `DELETE`/`GET …/export` of `users/:userId` or `visitors/:visitorId`
 * (site-visitor-data.ts), under the same key check and rate. Messages:
 * body `{ userId, text, conversationId? }` → 201 `{ conversationId, messageId }`.
 * 401 for a key that is unknown, revoked or another site's (which one is not said); 404 for a
 * user id without a verified session or a conversation not theirs; 400 naming bad fields; 413
 * over 16 KB; 429 with `Retry-After` over the key's rate. No CORS: browsers are not its callers.
 * The body is read only once the key and its rate are checked, so it is parsed here, not by
 * Fastify (whose parser would run before any of that).
 *
 * @example await app.register(siteMessages(services));
 */
export function siteMessages(s: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const limiters = new WindowLimiters(s.redis, s.config.REDIS_PREFIX);
    // the body stays unread until the handler reads it, bounded, after the checks
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    app.all(`${SITE_MESSAGES_PREFIX}*`, handler(s, limiters));
  };
}

function handler(s: Services, limiters: WindowLimiters) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const req = request.raw;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      reply
        .code(status)
        .headers({ 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
        .send(JSON.stringify(body));
    const path = new URL(request.url, 'http://x').pathname;
    const messages = /^\/api\/v1\/sites\/([^/]{1,256})\/messages$/.exec(path);
    const data = VISITOR_DATA_PATH.exec(path);
    const subject = data ? subjectOf(data[2]!, data[3]!) : null;
    if (!messages && !subject) return send(404, { error: 'not_found' });
    if (messages && req.method !== 'POST') return send(405, { error: 'method_not_allowed' }, { allow: 'POST' });
    let siteKey: string;
    try {
      siteKey = decodeURIComponent((messages ?? data)![1]!);
    } catch {
      return send(404, { error: 'not_found' });
    }
    const key = await apiKeyFor(s.db, siteKey, req.headers.authorization);
    if (!key) return send(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
    const verdict = await limiters.consume('siteMessages', PER_KEY, key.id);
    if (!verdict.ok) {
      return send(
        429,
        { error: 'rate_limited', retryAfterMs: verdict.retryAfterMs },
        { 'retry-after': String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))) },
      );
    }
    if (subject) {
      const answer = await answerVisitorData(s, key, {
        method: req.method ?? 'GET',
        subject,
        exporting: !!data![4],
        base: consoleBaseUrl({ req, services: s }),
      });
      return send(answer.status, answer.body, answer.headers);
    }
    const raw = await readBoundedBody(req);
    if (raw === null) return send(413, { error: 'body_too_large' }, { connection: 'close' });
    let json: unknown;
    try {
      json = wellFormed(JSON.parse(raw));
    } catch {
      return send(400, { error: 'invalid_json' });
    }
    const parsed = serverMessageInput.safeParse(json);
    if (!parsed.success) return send(400, { error: 'invalid_body', fieldErrors: z.flattenError(parsed.error).fieldErrors });
    const sent = await sendServerMessage(s, key, parsed.data);
    if (sent.ok) return send(201, { conversationId: sent.conversationId, messageId: sent.messageId });
    return send(sent.reason === 'conversation_limit' ? 429 : 404, { error: sent.reason });
  };
}

/** The request body as text, or null past MAX_BODY_BYTES (the rest is not read). */
async function readBoundedBody(req: IncomingMessage): Promise<string | null> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
