import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The widget calls the API from customers' pages, so any origin may call it; visitors
 * authenticate with a bearer token, never with cookies, so no credentials are allowed.
 * Returns true when the request was a preflight and has been answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  }
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'authorization, content-type, trpc-accept, x-trpc-source',
    'Access-Control-Max-Age': '600',
  });
  res.end();
  return true;
}
