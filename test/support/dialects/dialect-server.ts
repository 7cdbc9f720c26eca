import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request a personality answered. */
export interface DialectRequest {
  body: Record<string, unknown>;
  receivedAt: number;
}

/**
 * How a model server answers: writes the raw HTTP response itself, so a test can send exactly
 * the bytes a real server sends (missing fields, open streams, errors inside a stream).
 * `n` counts this server's requests from 1.
 */
export type Personality = (res: ServerResponse, body: Record<string, unknown>, n: number) => void | Promise<void>;

/** A running compatibility server and the handle a test switches its personality with. */
export interface DialectServer {
  /** base URL including `/v1` */
  readonly url: string;
  readonly requests: DialectRequest[];
  /** answers every following request the way `p` does; the request count restarts at 1 */
  use(p: Personality): void;
  /** drops every connection (streams left open too) and stops listening */
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible server on loopback whose dialect is switchable: each personality
 * imitates one documented behaviour of a real server (Ollama, llama.cpp, vLLM, OpenRouter …).
 * Plain node:http, so the client under test speaks real HTTP and SSE to it.
 * @example const server = await startDialectServer(); server.use(personalities.inlineThink);
 */
export async function startDialectServer(): Promise<DialectServer> {
  const requests: DialectRequest[] = [];
  let personality: Personality = (res) => void res.writeHead(503).end();
  let count = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const piece of req) raw += String(piece);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    const body = JSON.parse(raw) as Record<string, unknown>;
    requests.push({ body, receivedAt: Date.now() });
    await personality(res, body, ++count);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    use: (p) => {
      personality = p;
      count = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
