import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-after.ts';
import { safeMessage } from './provider-error.ts';
import { withoutEcho } from './without-echo.ts';

const limited = (headers: Record<string, string>) =>
  OpenAI.APIError.generate(429, { error: { message: 'slow down' } }, undefined, new Headers(headers));

test('Retry-After in seconds, as a date, and in ms is honoured, capped; none means none', () => {
  expect(retryAfterMs(limited({ 'retry-after': '10' }))).toBe(10_000);
  expect(retryAfterMs(limited({ 'retry-after-ms': '1500' }))).toBe(1500);
  expect(retryAfterMs(limited({ 'retry-after': new Date(60_000).toUTCString() }), 0)).toBe(MAX_RETRY_AFTER_MS);
  expect(retryAfterMs(limited({ 'retry-after': '3600' }))).toBe(MAX_RETRY_AFTER_MS);
  expect(retryAfterMs(limited({}))).toBeNull();
  expect(retryAfterMs(new Error('x'))).toBeNull();
});

test("a provider's message in a log line keeps its advice but never a key or a long echoed passage", () => {
  expect(safeMessage('Incorrect API key provided: sk-proj-abcdefghijkl. See docs.')).toBe('Incorrect API key provided: [key]. See docs.');
  expect(safeMessage(`Invalid value for 'content': "${'my secret order details '.repeat(3)}"`)).toBe(`Invalid value for 'content': "…"`);
  expect(safeMessage('x'.repeat(1000)).length).toBeLessThanOrEqual(241);
});

test('a provider quoting the conversation is logged without the quote, its advice kept', () => {
  const sent = [{ role: 'user' as const, content: 'my password is hunter2-0123456789 please' }];
  expect(withoutEcho('Invalid prompt: my password is hunter2-0123456789', sent)).toBe('Invalid prompt: …');
  expect(withoutEcho('Code hunter2-0123456789 rejected', sent)).toBe('Code … rejected');
  expect(withoutEcho("Unsupported parameter: 'max_tokens' is not supported with this model.", sent)).toBe(
    "Unsupported parameter: 'max_tokens' is not supported with this model.",
  );
});
