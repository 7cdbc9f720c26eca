import { setTimeout as delay } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { RawToolCall } from './tools.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { Logger } from '../../logging/logger.ts';
import { isInfrastructureError } from '../run/run-errors.ts';
import {
  classifyModelError,
  ContentFilteredError,
  EmptyReplyError,
  ModelTimeoutError,
  StreamEndedEarlyError,
  type ClassifiedError,
} from './model-errors.ts';
import { wellFormedText } from '../../db/well-formed.ts';
import { providerError, type ProviderError } from './provider-error.ts';
import { retryAfterMs } from './retry-after.ts';
import { ThinkFilter } from './think-filter.ts';
import { ToolCallAssembler } from './tool-call-assembler.ts';
import type { ModelCapabilities } from './capabilities.ts';
import { watchBytes } from './byte-watch.ts';
import { rejectedParameter } from './rejected-parameter.ts';
import { requestBody } from './request-body.ts';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';

/**
 * How long a stream may stay open after its `finish_reason` (the usage chunk and `[DONE]` come
 * within milliseconds); some servers never close it, and the reply they sent is whole.
 */
export const FINISH_GRACE_MS = 2000;

export interface StreamRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  maxTokens: number;
  /** longest silence between tokens once the reply streams; keep-alive comments and empty chunks count as life */
  timeoutMs: number;
  /** longest wait for the first token (text, reasoning or a tool call); keep-alives do not count. Default `timeoutMs` */
  firstTokenMs?: number;
  signal: AbortSignal;
  /** function tools the model may call */
  tools?: ChatCompletionFunctionTool[];
  /** 'none' forces a text answer (the last round of a tool loop) */
  toolChoice?: 'auto' | 'none';
  /** called for every text fragment, in order; `attempt` restarts at a fresh reply */
  onDelta: (text: string) => Promise<void>;
  /** called before a retry that follows partial output, so listeners can discard it */
  onRestart: () => Promise<void>;
  /** what the server takes; a refused parameter is learned there and the request sent again without it */
  capabilities?: ModelCapabilities;
}

export interface StreamResult {
  text: string;
  /** the calls the model made, in order, reassembled from their streamed fragments */
  toolCalls: RawToolCall[];
  attempts: number;
  promptTokens: number | null;
  completionTokens: number | null;
  /** how the stream ended: the server's `finish_reason`, or `none` when it said nothing */
  finishReason: string;
}

export class ReplyFailedError extends Error {
  constructor(
    readonly classified: ClassifiedError,
    readonly attempts: number,
    override readonly cause: unknown,
    /** what the provider said (safe to log: see providerError) */
    readonly provider: ProviderError = {},
  ) {
    super(`reply failed after ${attempts} attempt(s): ${classified.code}`);
  }
}

/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s … capped at 8 s. */
export const backoffMs = (attempt: number, base = 500): number => Math.random() * Math.min(8000, base * 2 ** (attempt - 1));

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
  opts: {
    maxAttempts: number;
    backoff?: (attempt: number) => number;
    metrics?: Pick<Metrics, 'modelErrors' | 'modelRetries'>;
    /** gets one line per failed attempt (with the provider's own words) and one for a success after retries */
    logger?: Pick<Logger, 'warn' | 'info'>;
  },
): Promise<StreamResult> {
  const noFlags = new Set<never>();
  for (let attempt = 1; ; attempt++) {
    let emitted = false;
    const body = requestBody(req, req.capabilities?.of(req.model) ?? noFlags);
    try {
      const result = await streamOnce(openai, req, body, () => (emitted = true));
      if (attempt > 1) opts.logger?.info({ attempts: attempt }, 'model answered after retries');
      return { ...result, attempts: attempt };
    } catch (err) {
      // a relay write that failed (Redis away) is not the model's fault: the run decides (run-failure.ts)
      if (req.signal.aborted || isInfrastructureError(err)) throw err;
      // a parameter refused by name is dropped (or renamed) at once; this does not count as an attempt
      const refused = req.capabilities && !emitted ? rejectedParameter(err, body) : null;
      if (refused && req.capabilities?.learn(req.model, refused, opts.logger, providerError(err, req.messages).message)) {
        attempt--;
        continue;
      }
      const classified = classifyModelError(err);
      opts.metrics?.modelErrors.inc({ kind: classified.code });
      const retrying = classified.transient && attempt < opts.maxAttempts;
      // a provider's Retry-After (bounded) beats our guess; a 429 without one still backs off
      const waitMs = retrying ? (retryAfterMs(err) ?? (opts.backoff ?? backoffMs)(attempt)) : 0;
      const provider = providerError(err, req.messages);
      opts.logger?.warn(
        { attempt, kind: classified.code, provider, err, ...(retrying ? { retryInMs: Math.round(waitMs) } : {}) },
        `model attempt ${attempt} failed: ${classified.code}`,
      );
      if (!retrying) throw new ReplyFailedError(classified, attempt, err, provider);
      opts.metrics?.modelRetries.inc();
      if (emitted) await req.onRestart();
      await delay(waitMs, undefined, { signal: req.signal });
    }
  }
}

async function streamOnce(
  openai: OpenAI,
  req: StreamRequest,
  body: ChatCompletionCreateParamsStreaming,
  markEmitted: () => void,
): Promise<Omit<StreamResult, 'attempts'>> {
  // One controller per attempt: the run's signal (lease lost) or our idle timeout end it.
  const controller = new AbortController();
  const onAbort = () => controller.abort(req.signal.reason);
  req.signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  let limitMs = req.firstTokenMs ?? req.timeoutMs;
  const arm = (ms: number, onFire: () => void) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      onFire();
      controller.abort();
    }, ms);
  };
  // Until the first token only the first-token timer runs (a reasoning model may think for a
  // minute, and a server that only ever sends keep-alives must still fail). Then a gap timer,
  // reset by any byte (comments too): a hung model fails, a long healthy reply does not.
  // After the finish reason, a short grace instead: a stream left open then has ended all the same.
  let progressed = false;
  const armGap = () => {
    limitMs = req.timeoutMs;
    arm(req.timeoutMs, () => (timedOut = true));
  };
  arm(limitMs, () => (timedOut = true));
  const watch = watchBytes(() => {
    if (progressed && finishReason === null) armGap();
  });
  let text = '';
  const calls = new ToolCallAssembler();
  const visible = new ThinkFilter();
  let finishReason: string | null = null;
  let promptTokens: number | null = null;
  let completionTokens: number | null = null;
  const emit = async (fragment: string) => {
    if (fragment === '') return;
    text += fragment;
    markEmitted();
    await req.onDelta(fragment);
  };
  try {
    try {
      const stream = await openai.chat.completions.create(body, { signal: controller.signal, headers: watch.headers });
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (!progressed && choice && isProgress(choice.delta)) progressed = true;
        if (progressed && finishReason === null) armGap();
        // reasoning (`reasoning_content`, `reasoning`) is never content; inline <think> blocks are cut out
        if (choice?.delta?.content) await emit(visible.push(choice.delta.content));
        for (const part of choice?.delta?.tool_calls ?? []) calls.add(part);
        if (choice?.finish_reason && finishReason === null) {
          finishReason = choice.finish_reason;
          arm(FINISH_GRACE_MS, () => (settled = true));
        }
        if (chunk.usage) {
          promptTokens = chunk.usage.prompt_tokens;
          completionTokens = chunk.usage.completion_tokens;
          // the usage chunk is the last one a finished stream sends
          if (finishReason !== null) break;
        }
      }
    } catch (err) {
      if (!settled) throw err;
    }
    // The SDK ends the loop quietly on abort; a reply cut short must never count as complete.
    if (controller.signal.aborted && !settled) throw timedOut ? new ModelTimeoutError(limitMs) : req.signal.reason;
    await emit(visible.end());
    if (finishReason === 'content_filter') throw new ContentFilteredError();
    const toolCalls = calls.result();
    // a stream that closed cleanly after text is whole even without a finish reason or [DONE] (some servers send neither)
    if (finishReason === null && text === '' && toolCalls.length === 0) throw new StreamEndedEarlyError();
    if (text.trim() === '' && toolCalls.length === 0) throw new EmptyReplyError();
    // a lone surrogate in the model's text (JSON can escape one) would fail the reply's event (db/well-formed.ts)
    return { text: wellFormedText(text), toolCalls, promptTokens, completionTokens, finishReason: (finishReason ?? 'none').slice(0, 32) };
  } catch (err) {
    if (timedOut) throw new ModelTimeoutError(limitMs);
    throw err;
  } finally {
    watch.stop();
    clearTimeout(timer);
    req.signal.removeEventListener('abort', onAbort);
  }
}

/** A delta that carries the model's output: text, reasoning (in any field servers use) or a tool call. */
function isProgress(delta: object | undefined): boolean {
  const d = (delta ?? {}) as { content?: unknown; tool_calls?: unknown[]; reasoning_content?: unknown; reasoning?: unknown };
  return Boolean(d.content || d.tool_calls?.length || d.reasoning_content || d.reasoning);
}
