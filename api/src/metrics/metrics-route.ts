import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerMatches } from '../http/bearer.ts';
import type { Metrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` with `Authorization: Bearer $METRICS_TOKEN`: the Prometheus text
 * exposition of this process's registry. Without METRICS_TOKEN configured every request is
 * refused (401): there is no open default.
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (!bearerMatches(req.headers.authorization, token)) {
      return void res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
