import { setTimeout as delay } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { RawToolCall } from './tools.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { isInfrastructureError } from '../run/run-errors.ts';
import { classifyModelError, EmptyReplyError, ModelTimeoutError, StreamEndedEarlyError, type ClassifiedError } from './model-errors.ts';
import { wellFormedText } from '../../db/well-formed.ts';

export interface StreamRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  maxTokens: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** function tools the model may call */
  tools?: ChatCompletionFunctionTool[];
  /** 'none' forces a text answer (the last round of a tool loop) */
  toolChoice?: 'auto' | 'none';
  /** called for every text fragment, in order; `attempt` restarts at a fresh reply */
  onDelta: (text: string) => Promise<void>;
  /** called before a retry that follows partial output, so listeners can discard it */
  onRestart: () => Promise<void>;
}

export interface StreamResult {
  text: string;
  /** the calls the model made, in order, reassembled from their streamed fragments */
  toolCalls: RawToolCall[];
  attempts: number;
  promptTokens: number | null;
  completionTokens: number | null;
}

export class ReplyFailedError extends Error {
  constructor(
    readonly classified: ClassifiedError,
    readonly attempts: number,
    override readonly cause: unknown,
  ) {
    super(`reply failed after ${attempts} attempt(s): ${classified.code}`);
  }
}

/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s … capped at 8 s. */
export const backoffMs = (attempt: number, base = 500): number =>
  Math.random() * Math.min(8000, base * 2 ** (attempt - 1));

/**
 * Streams one reply through the official SDK, retrying transient failures (429, 5xx,
 * timeouts, streams that break off) with backoff. Text deltas are relayed as they come;
 * tool calls are reassembled from their fragments (id and name on the first, arguments
 * spread over many) and returned whole once the stream finished. An abort (lost lease) stops at once and is not
 * retried. Throws ReplyFailedError when every attempt failed.
 */
export async function streamReply(
  openai: OpenAI,
  req: StreamRequest,
  opts: { maxAttempts: number; backoff?: (attempt: number) => number; metrics?: Pick<Metrics, 'modelErrors' | 'modelRetries'> },
): Promise<StreamResult> {
  for (let attempt = 1; ; attempt++) {
    let emitted = false;
    try {
      const result = await streamOnce(openai, req, () => (emitted = true));
      return { ...result, attempts: attempt };
    } catch (err) {
      // a relay write that failed (Redis away) is not the model's fault: the run decides (run-failure.ts)
      if (req.signal.aborted || isInfrastructureError(err)) throw err;
      const classified = classifyModelError(err);
      opts.metrics?.modelErrors.inc({ kind: classified.code });
      if (!classified.transient || attempt >= opts.maxAttempts) throw new ReplyFailedError(classified, attempt, err);
      opts.metrics?.modelRetries.inc();
      if (emitted) await req.onRestart();
      await delay((opts.backoff ?? backoffMs)(attempt), undefined, { signal: req.signal });
    }
  }
}

async function streamOnce(
  openai: OpenAI,
  req: StreamRequest,
  markEmitted: () => void,
): Promise<Omit<StreamResult, 'attempts'>> {
  // One controller per attempt: the run's signal (lease lost) or our idle timeout end it.
  const controller = new AbortController();
  const onAbort = () => controller.abort(req.signal.reason);
  req.signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // An idle timeout, reset by every chunk: a hung model fails, a long healthy reply does not.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
  };
  arm();
  try {
    const stream = await openai.chat.completions.create(
      {
        model: req.model,
        messages: req.messages,
        max_tokens: req.maxTokens,
        stream: true,
        stream_options: { include_usage: true },
        ...(req.tools && req.tools.length > 0 ? { tools: req.tools, tool_choice: req.toolChoice ?? 'auto' } : {}),
      },
      { signal: controller.signal },
    );
    let text = '';
    const calls: RawToolCall[] = [];
    let finished = false;
    let promptTokens: number | null = null;
    let completionTokens: number | null = null;
    for await (const chunk of stream) {
      arm();
      const choice = chunk.choices[0];
      if (choice?.delta?.content) {
        text += choice.delta.content;
        markEmitted();
        await req.onDelta(choice.delta.content);
      }
      for (const part of choice?.delta?.tool_calls ?? []) {
        const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
        if (part.id) call.id = part.id;
        if (part.function?.name && call.name === '') call.name = part.function.name;
        if (part.function?.arguments) call.arguments += part.function.arguments;
      }
      if (choice?.finish_reason) finished = true;
      if (chunk.usage) {
        promptTokens = chunk.usage.prompt_tokens;
        completionTokens = chunk.usage.completion_tokens;
      }
    }
    // The SDK ends the loop quietly on abort; a reply cut short must never count as complete.
    if (controller.signal.aborted) throw timedOut ? new ModelTimeoutError(req.timeoutMs) : req.signal.reason;
    if (!finished) throw new StreamEndedEarlyError();
    // A sparse index (a server that skipped one) leaves holes; a call without an id gets one.
    const toolCalls = calls.flatMap((c, i) => (c ? [{ ...c, id: c.id || `call_${i}` }] : []));
    if (text.trim() === '' && toolCalls.length === 0) throw new EmptyReplyError();
    // a lone surrogate in the model's text (JSON can escape one) would fail the reply's event (db/well-formed.ts)
    return { text: wellFormedText(text), toolCalls, promptTokens, completionTokens };
  } catch (err) {
    if (timedOut) throw new ModelTimeoutError(req.timeoutMs);
    throw err;
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener('abort', onAbort);
  }
}
