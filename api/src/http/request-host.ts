import type { IncomingMessage } from 'node:http';

/**
 * The host name the browser used for this request (`localhost`, `127.0.0.1`, `[::1]`), so
 * links to a sibling port stay on the name the visitor typed; `fallback` when the `Host`
 * header is missing or malformed.
 */
export function requestHostname(req: IncomingMessage, fallback = '127.0.0.1'): string {
  try {
    return req.headers.host ? new URL(`http://${req.headers.host}`).hostname || fallback : fallback;
  } catch {
    return fallback;
  }
}
