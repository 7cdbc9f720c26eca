import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a request id may look like when it comes from a proxy: short, and safe in a log line and a header. */
const SANE_ID = /^[A-Za-z0-9._-]{1,64}$/;

const ids = new WeakMap<IncomingMessage, string>();

/**
 * Gives the request its id (Fastify's `genReqId`; the server answers it in `X-Request-Id`).
 * The incoming `X-Request-Id` is kept only behind a trusted proxy (`trustedProxies` > 0, as
 * TRUST_PROXY) and only when sane; otherwise (anyone can write that header) the id is fresh
 * and random.
 * @example Fastify({ genReqId: (req) => assignRequestId(req, config.TRUST_PROXY) })
 */
export function assignRequestId(req: IncomingMessage, trustedProxies: number): string {
  const incoming = req.headers['x-request-id'];
  const id = trustedProxies > 0 && typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
  ids.set(req, id);
  return id;
}

/** The id `assignRequestId` gave this request (a fresh one for a request that never passed through it). */
export function requestIdOf(req: IncomingMessage): string {
  let id = ids.get(req);
  if (id === undefined) ids.set(req, (id = randomUUID()));
  return id;
}
