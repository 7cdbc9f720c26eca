import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer } from './answer.ts';
import { defaultResponder } from './default-responder.ts';
import { readBody, sendError, sendJson } from './http-io.ts';
import { LOCAL_MODEL } from './plan-reply.ts';
import { localEmbedding } from './local-embeddings.ts';

/** The name the local embeddings answer under (any `model` asked for gets them). */
export const LOCAL_EMBEDDING_MODEL = 'heed-local-embeddings';
import type { ChatRequestBody, RecordedRequest, Responder, ScriptedReply } from './types.ts';

/** A running local OpenAI-compatible server and the handles tests steer it with. */
export interface ModelServer {
  /** base URL including `/v1`, e.g. `http://127.0.0.1:4010/v1`: pass it as the SDK's `baseURL` */
  readonly url: string;
  /** every chat-completions request received, in arrival order (malformed JSON bodies are not recorded; none with `record: false`) */
  readonly requests: RecordedRequest[];
  /** every embeddings request's inputs, in arrival order (none with `record: false`) */
  readonly embeddingRequests: string[][];
  /** queues replies for the next requests, one each, in order; an empty queue falls back to the responder */
  script(...replies: ScriptedReply[]): void;
  /** replaces the responder used when the script queue is empty */
  setResponder(fn: Responder): void;
  /** resolves with the recorded requests once at least `n` arrived; rejects after `timeoutMs` (default 5000) */
  waitForRequests(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** chat-completions requests being answered right now (waiting, hanging or streaming) */
  inFlight(): number;
  /** forgets recorded requests and the script queue, and restores the initial responder */
  reset(): void;
  /** drops every connection (in-flight requests end as aborted) and stops listening */
  close(): Promise<void>;
}

/**
 * Starts a local OpenAI-compatible chat-completions server: `POST /v1/chat/completions` (SSE or JSON),
 * `POST /v1/embeddings` (deterministic vectors, local-embeddings.ts), `GET /v1/models`, `GET /healthz`. Port 0 (the default) picks a free port.
 * @example
 * const server = await startModelServer();
 * server.script({ text: 'Hello there', chunkDelayMs: 5 });
 * const openai = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
 */
export async function startModelServer(
  opts: { port?: number; host?: string; respond?: Responder; record?: boolean } = {},
): Promise<ModelServer> {
  // tests read what was sent; the demo model of a long-running `npm start` must not keep every prompt
  const keepRequests = opts.record ?? true;
  const host = opts.host ?? '127.0.0.1';
  const initialResponder = opts.respond ?? defaultResponder;
  let responder = initialResponder;
  let nextId = 1;
  let inFlight = 0;
  const requests: RecordedRequest[] = [];
  const embeddingRequests: string[][] = [];
  const queue: ScriptedReply[] = [];
  const waiters = new Set<() => void>();

  async function chatCompletions(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const raw = await readBody(req);
    if (raw === undefined) return;
    const body = parseBody(raw);
    if (!body) return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');

    const record: RecordedRequest = { id: nextId++, body, headers: req.headers, receivedAt, aborted: false };
    if (keepRequests) requests.push(record);
    res.setHeader('x-request-id', `req_local_${record.id}`);
    for (const wake of waiters) wake();

    const controller = new AbortController();
    let brokeOff = false;
    res.on('close', () => {
      record.finishedAt ??= Date.now();
      if (!res.writableFinished && !brokeOff) record.aborted = true;
      controller.abort();
    });
    const breakOff = () => {
      brokeOff = true;
      res.destroy();
    };

    inFlight++;
    try {
      const reply = queue.shift() ?? (await responder(record));
      await answer(record, reply, { res, signal: controller.signal, breakOff });
    } catch (err) {
      // A throwing responder is a bug in the test that scripted it: say so in the response.
      if (res.headersSent) res.destroy();
      else sendError(res, 500, `model-server responder failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      inFlight--;
    }
  }

  async function embeddings(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (raw === undefined) return;
    let input: unknown;
    try {
      input = (JSON.parse(raw) as { input?: unknown }).input;
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
      return sendError(res, 400, "'input' must be a string or a non-empty array of strings.", 'invalid_request_error');
    if (keepRequests) embeddingRequests.push(texts);
    sendJson(res, 200, {
      object: 'list',
      model: LOCAL_EMBEDDING_MODEL,
      data: texts.map((t, index) => ({ object: 'embedding', index, embedding: localEmbedding(t) })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://local').pathname.replace(/\/+$/, '');
    if (req.method === 'POST' && path === '/v1/chat/completions') return chatCompletions(req, res);
    if (req.method === 'POST' && path === '/v1/embeddings') return embeddings(req, res);
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: LOCAL_MODEL, object: 'model', created: 0, owned_by: 'heed' }] });
    }
    if (req.method === 'GET' && path === '/healthz') return sendJson(res, 200, { ok: true });
    sendError(res, 404, `No route for ${req.method} ${path || '/'}.`);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      console.error('model-server: unexpected error', err);
      if (!res.headersSent) sendError(res, 500, 'Internal error in the local model server.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${urlHost(host)}:${port}/v1`,
    requests,
    embeddingRequests,
    script: (...replies) => void queue.push(...replies),
    setResponder: (fn) => void (responder = fn),
    inFlight: () => inFlight,
    waitForRequests: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < n) return;
          cleanup();
          resolve([...requests]);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`model-server: expected ${n} requests within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    reset: () => {
      requests.length = 0;
      embeddingRequests.length = 0;
      queue.length = 0;
      nextId = 1;
      responder = initialResponder;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function parseBody(raw: string): ChatRequestBody | undefined {
  try {
    const body: unknown = JSON.parse(raw);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as ChatRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

// A wildcard bind address is not something a client can connect to; IPv6 literals need brackets.
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
