import type { ServerResponse } from 'node:http';
import { sleep } from './abortable.ts';
import { writeFlushed } from './http-io.ts';
import type { ReplyPlan } from './plan-reply.ts';
import { chunkEvents } from './wire-format.ts';

/** How to pace and, optionally, break a streamed answer. */
export interface StreamOptions {
  includeUsage: boolean;
  chunkDelayMs: number;
  /** destroy the connection after this many `data:` events instead of finishing */
  breakAfter?: number;
  /** drops the connection on purpose (the server records it as a break, not a client abort) */
  breakOff: () => void;
  /** aborts when the client goes away */
  signal: AbortSignal;
}

/**
 * Streams a plan as OpenAI server-sent events, ending with `data: [DONE]`.
 * @example await streamReply(res, plan, { includeUsage: true, chunkDelayMs: 5, breakOff, signal })
 */
export async function streamReply(res: ServerResponse, plan: ReplyPlan, opts: StreamOptions): Promise<void> {
  const events = chunkEvents(plan, opts.includeUsage);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const [i, event] of events.entries()) {
    if (opts.breakAfter !== undefined && i >= opts.breakAfter) return opts.breakOff();
    if (i > 0) await sleep(opts.chunkDelayMs, opts.signal);
    if (opts.signal.aborted) return;
    await writeFlushed(res, `data: ${JSON.stringify(event)}\n\n`);
  }
  if (opts.breakAfter !== undefined) return opts.breakOff();
  res.end('data: [DONE]\n\n');
}
