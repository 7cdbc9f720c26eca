import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Node's `clientError`: a request its parser rejects (a header over 16 KB, a request that
 * took longer than the request timeout, bytes that are not HTTP) is answered on the raw
 * socket, which is then closed. The answer says `Connection: close`, which Fastify's default
 * handler leaves out (Node's own writes it): without it an HTTP/1.1 client reads a complete
 * keep-alive answer, returns the connection to its pool and sends its next request (a POST,
 * which it will not retry) into the socket the server is closing, and that request fails
 * with "other side closed". Found by test/api/fuzz.test.ts: a stream request with a 20 KB
 * Last-Event-ID got 431, and the visitor's next call on that connection failed.
 * Status codes and bodies are Fastify's.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // a reset or an already closed socket has no one to answer
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = ANSWERS.get(err.code ?? '') ?? [400, 'Client Error'];
  const body = JSON.stringify({ error: STATUS_CODES[status], message, statusCode: status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Status and message by Node's error code; anything else is a 400. */
const ANSWERS = new Map<string, [status: number, message: string]>([
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Client Timeout']],
  ['HPE_HEADER_OVERFLOW', [431, 'Exceeded maximum allowed HTTP header size']],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', [413, 'Chunk extensions too large']],
]);
