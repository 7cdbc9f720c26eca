import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { withoutEcho } from './without-echo.ts';

/** What a provider said about a failed request, safe for a log line. */
export interface ProviderError {
  status?: number;
  /** the provider's error `type` (e.g. `invalid_request_error`) */
  type?: string;
  code?: string;
  /** the request field it objected to, when it named one */
  param?: string;
  /** the provider's own sentence (first line, bounded, keys and long quotes blanked) */
  message?: string;
}

const MAX_MESSAGE = 240;

/**
 * The provider's status, error type/code/param and message, for the log line of a failed
 * attempt: the sentence usually names the fix ("tools param requires --jinja flag"). Bounded;
 * API keys, long quoted passages and anything echoed from `sent` (the conversation: a provider
 * may quote the prompt) are blanked. Empty for errors that are not the provider's answer.
 * @example providerError(err) // { status: 400, type: 'invalid_request_error', message: "Unsupported parameter: 'max_tokens' …" }
 */
export function providerError(err: unknown, sent: readonly ChatCompletionMessageParam[] = []): ProviderError {
  if (!(err instanceof OpenAI.APIError)) return {};
  const body = (typeof err.error === 'object' && err.error !== null ? err.error : {}) as Record<string, unknown>;
  const raw = typeof body.message === 'string' ? body.message : typeof err.error === 'string' ? err.error : '';
  return {
    ...(typeof err.status === 'number' ? { status: err.status } : {}),
    ...(short(err.type) ? { type: short(err.type) } : {}),
    ...(short(err.code) ? { code: short(err.code) } : {}),
    ...(short(err.param) ? { param: short(err.param) } : {}),
    ...(raw ? { message: safeMessage(withoutEcho(raw, sent)) } : {}),
  };
}

/** The first line of a provider's message, bounded, with secrets and echoed text blanked. */
export function safeMessage(text: string): string {
  const line = text
    .split('\n', 1)[0]!
    .trim()
    .replace(/\b(sk|rk|pk)-[A-Za-z0-9_-]{6,}/g, '[key]')
    .replace(/\bBearer\s+\S+/gi, 'Bearer [key]')
    .replace(/(["'`])[^"'`]{41,}\1/g, '$1…$1');
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

const short = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v.slice(0, 80) : typeof v === 'number' ? String(v) : undefined;
