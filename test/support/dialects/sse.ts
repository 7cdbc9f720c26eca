import type { ServerResponse } from 'node:http';

/** Starts an SSE response as OpenAI-compatible servers do. */
export function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/** Writes one `data:` event holding `payload` as JSON. */
export function event(res: ServerResponse, payload: unknown): void {
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
}

/** A chunk with one choice whose delta (and finish reason) are given; other fields as servers send them. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): unknown {
  return {
    id: 'chatcmpl-dialect',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

/** Streams `deltas` as content chunks, then the finish reason (unless null), then `[DONE]` and the end (unless `open`). */
export function streamText(
  res: ServerResponse,
  deltas: string[],
  opts: { finish?: string | null; done?: boolean; open?: boolean } = {},
): void {
  openStream(res);
  event(res, chunk({ role: 'assistant', content: '' }));
  for (const d of deltas) event(res, chunk({ content: d }));
  if (opts.finish !== null) event(res, chunk({}, opts.finish ?? 'stop'));
  if (opts.done ?? true) res.write('data: [DONE]\n\n');
  if (!opts.open) res.end();
}

/** An OpenAI-style JSON error response. */
export function sendError(res: ServerResponse, status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error }));
}

/** A whole (non-streamed) chat completion whose message says `content`. */
export function sendCompletion(res: ServerResponse, content: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-dialect',
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
    }),
  );
}
