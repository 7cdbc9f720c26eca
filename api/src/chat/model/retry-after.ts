import OpenAI from 'openai';

/** Longest wait a provider's `Retry-After` is honoured for: beyond it the run fails rather than hang. */
export const MAX_RETRY_AFTER_MS = 30_000;

/**
 * The wait a provider asked for before the next attempt (`retry-after-ms`, else `Retry-After`
 * in seconds or as an HTTP date), capped at MAX_RETRY_AFTER_MS; null when it asked for none.
 * @example retryAfterMs(err429) === 10_000 // the server sent `Retry-After: 10`
 */
export function retryAfterMs(err: unknown, now = Date.now()): number | null {
  if (!(err instanceof OpenAI.APIError) || !err.headers) return null;
  const headers = err.headers as Headers;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS);
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(wait) && wait >= 0 ? Math.min(wait, MAX_RETRY_AFTER_MS) : null;
}
