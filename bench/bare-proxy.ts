import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { preciseNow } from './stats.ts';

/** The smallest possible relay: one HTTP server that pipes a model stream out as SSE. */
export interface BareProxy {
  /** GET this URL to start one model stream */
  url: string;
  close(): Promise<void>;
}

/**
 * The baseline Heed's relay is compared with: `GET /stream` calls the model server with the
 * official SDK (`stream: true`) and writes each content delta as one `data: {"text":…}` line,
 * no database, no Redis, no tRPC.
 */
export async function startBareProxy(modelUrl: string): Promise<BareProxy> {
  const openai = new OpenAI({ apiKey: 'bench', baseURL: modelUrl, maxRetries: 0 });
  const server = createServer((_req, res) => {
    void (async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.flushHeaders();
      const stream = await openai.chat.completions.create({
        model: 'bench',
        messages: [{ role: 'user', content: 'relay bench' }],
        stream: true,
      });
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) res.write(`data: ${JSON.stringify({ text })}\n\n`);
      }
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/stream`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads one bare-proxy stream with fetch, calling `onDelta` with each delta and its receipt time. */
export async function readBareStream(url: string, onDelta: (text: string, receivedAt: number) => void): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`bare proxy answered ${res.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const receivedAt = preciseNow();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (event.startsWith('data: ')) onDelta((JSON.parse(event.slice(6)) as { text: string }).text, receivedAt);
    }
  }
}
