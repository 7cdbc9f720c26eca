import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A year: browsers keep using https for the host that long after one https response. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers on every API response: `nosniff` and no referrer beyond the origin; HSTS when the
 * request came over https (directly, or through `trustedProxies` proxies that say so in
 * `X-Forwarded-Proto`), since a plain-http response cannot set it meaningfully.
 * @example app.addHook('onRequest', securityHeaders(config.TRUST_PROXY));
 */
export function securityHeaders(trustedProxies: number): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    reply.headers({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin' });
    if (overHttps(request.raw, trustedProxies)) reply.header('strict-transport-security', HSTS);
  };
}

/** Whether the request came over https: a TLS socket, or `X-Forwarded-Proto: https` from a trusted proxy. */
export function overHttps(req: IncomingMessage, trustedProxies: number): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (trustedProxies <= 0) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',').at(-1)?.trim().toLowerCase();
  return first === 'https';
}
