import type { FastifyRequest } from 'fastify';

/**
 * The path of a request as the client wrote it, `%`-escapes kept: static files decode it once
 * themselves (Fastify's route params are decoded already, and decoding twice would turn
 * `%252e` into `.`).
 */
export function rawPathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
