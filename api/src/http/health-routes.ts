import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { checkHealth, checkReadiness, type Health } from './health.ts';

/**
 * `/healthz` (liveness: both stores answer) and `/readyz` (readiness: and every migration is
 * applied): 200 or 503 with the checks as JSON, never cached.
 *
 * @example await app.register(healthRoutes(services));
 */
export function healthRoutes(s: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const probes: Record<string, () => Promise<Health>> = { '/healthz': () => checkHealth(s), '/readyz': () => checkReadiness(s) };
    for (const [url, check] of Object.entries(probes)) {
      app.all(url, async (_request, reply) => {
        const health = await check();
        return reply
          .code(health.ok ? 200 : 503)
          .headers({ 'content-type': 'application/json', 'cache-control': 'no-store' })
          .send(JSON.stringify(health));
      });
    }
  };
}
