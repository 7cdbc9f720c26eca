import type { FastifyInstance } from 'fastify';
import { bearerMatches } from '../http/bearer.ts';
import type { Metrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` with `Authorization: Bearer $METRICS_TOKEN`: the Prometheus text
 * exposition of this process's registry. Without METRICS_TOKEN configured every request is
 * refused (401): there is no open default.
 *
 * @example await app.register(metricsRoute(services.metrics, config.METRICS_TOKEN));
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    app.all(METRICS_PATH, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply.code(401).headers({ 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).send('Unauthorized');
      }
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return reply.code(405).headers({ allow: 'GET, HEAD', 'content-type': 'text/plain' }).send('Method not allowed');
      const body = await metrics.registry.metrics();
      reply.headers({ 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
      return reply.send(request.method === 'HEAD' ? undefined : body);
    });
  };
}
