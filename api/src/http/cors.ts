import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The widget calls the API from customers' pages, so any origin may call it; visitors
 * authenticate with a bearer token, never with cookies, so no credentials are allowed. Which
 * origins a site accepts is the procedures' concern (403 `origin_not_allowed`), not CORS's:
 * the browser must be able to read that refusal. A preflight is answered here (204) and
 * goes no further.
 *
 * @example app.addHook('onRequest', applyCors);
 */
export async function applyCors(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const origin = request.headers.origin;
  if (origin) reply.headers({ 'access-control-allow-origin': origin, vary: 'Origin' });
  if (request.method !== 'OPTIONS') return;
  await reply
    .code(204)
    .headers({
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'authorization, content-type, trpc-accept, x-trpc-source',
      'access-control-max-age': '600',
    })
    .send();
}
