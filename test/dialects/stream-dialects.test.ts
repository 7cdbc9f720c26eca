import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { converse as converseWith } from '../support/dialects/converse.ts';
import { startDialectServer, type DialectServer, type Personality } from '../support/dialects/dialect-server.ts';
import { personalities } from '../support/dialects/personalities.ts';

/**
 * The dialects of real model servers, through the whole stack: what the visitor sees live,
 * what is stored, how many paid requests were made, and what the operator reads in the log.
 */
let dialect: DialectServer;
let heed: TestHeed;
beforeAll(async () => {
  dialect = await startDialectServer();
  heed = await TestHeed.start({ env: { OPENAI_BASE_URL: dialect.url, MODEL_MAX_ATTEMPTS: '3', MODEL_TIMEOUT_MS: '8000' } });
});
afterAll(async () => {
  await heed?.stop();
  await dialect?.close();
});

const converse = (p: Personality, text?: string) => converseWith(heed, dialect, p, text);

test('tool calls without an index (older Ollama) still ask the visitor the question', async () => {
  const { end, run } = await converse(personalities.toolCallsWithoutIndex, 'I want a sofa');
  expect(end.type === 'reply.completed' && end.message).toMatchObject({
    content: 'Which size do you need?',
    inputRequest: { choices: ['Small', 'Large'] },
  });
  expect(run.status).toBe('awaiting_input');
});

test('several calls at index 0 with their own ids (current Ollama) are applied one by one', async () => {
  const { end, conversationId, visitor } = await converse(personalities.toolCallsAllIndexZero, 'Note two things');
  expect(end.type === 'reply.completed' && end.message.content).toBe('Both are on your list.');
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.openTodos.map((t) => t.text)).toEqual(['Send the invoice', 'Book the venue']);
});

test('whole calls in one chunk, without index or id, are each applied', async () => {
  const { end, conversationId, visitor } = await converse(personalities.wholeCallsInOneChunk, 'Note two things');
  expect(end.type === 'reply.completed' && end.message.content).toBe('Noted both.');
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  expect(conversation.openTodos.map((t) => t.text)).toEqual(['Call the bank', 'Renew the lease']);
});

test('inline <think> reasoning, its tags split across chunks, is neither shown nor stored', async () => {
  const { stored, seen } = await converse(personalities.inlineThink);
  expect(stored.content).toBe('We open at nine.');
  expect(seen).toBe('We open at nine.');
});

test('reasoning sent in reasoning_content or reasoning is never shown', async () => {
  const { stored, seen } = await converse(personalities.reasoningFields);
  expect(stored.content).toBe('We open at nine.');
  expect(seen).toBe('We open at nine.');
});

test('a stream without a finish reason is a whole reply, answered with one request', async () => {
  const { stored, run } = await converse(personalities.noFinishReason);
  expect(stored).toEqual({ content: 'We open at nine.', error: null });
  expect(run.attempts).toBe(1);
  expect(dialect.requests).toHaveLength(1);
});

test('a stream left open after finish_reason "stop" ends the reply instead of timing out', async () => {
  const { stored, run } = await converse(personalities.stopWithoutDoneLeftOpen);
  expect(stored).toEqual({ content: 'We open at nine.', error: null });
  expect(run.attempts).toBe(1);
  expect(dialect.requests).toHaveLength(1);
});

test('a reply cut at the token cap is stored once, not retried, and its run says length', async () => {
  const { stored, run } = await converse(personalities.cutAtLength);
  expect(stored).toEqual({ content: 'We open at nine on weekdays and', error: null });
  expect(dialect.requests).toHaveLength(1);
  const { finishReason } = await heed.services.db.run.findUniqueOrThrow({ where: { id: run.id }, select: { finishReason: true } });
  expect(finishReason).toBe('length');
});

test('the finish reason of each run is recorded, a filtered one too', async () => {
  const done = await converse(personalities.noFinishReason);
  const filtered = await converse(personalities.contentFilter);
  const reasons = await heed.services.db.run.findMany({
    where: { id: { in: [done.run.id, filtered.run.id] } },
    select: { id: true, finishReason: true },
  });
  expect(Object.fromEntries(reasons.map((r) => [r.id, r.finishReason]))).toEqual({
    [done.run.id]: 'none',
    [filtered.run.id]: 'content_filter',
  });
});

test('a reply stopped by the content filter fails with its own wording, not retried, not stored as complete', async () => {
  const { end, stored } = await converse(personalities.contentFilter);
  expect(end.type).toBe('reply.failed');
  expect(stored.error).toBe('model_content_filtered');
  expect(stored.content).toMatch(/content policy/);
  expect(dialect.requests).toHaveLength(1);
});

test('Retry-After is honoured before the next attempt, and the success after a retry is logged', async () => {
  const { stored, run } = await converse(personalities.rateLimitedWithRetryAfter);
  expect(stored.content).toBe('Thanks for waiting.');
  expect(run.attempts).toBe(2);
  const [first, second] = dialect.requests;
  expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(1900);
  const failed = heed.logs.find((l) => l.includes(run.id) && l.includes('model attempt 1 failed'));
  expect(failed).toMatch(/"retryInMs":2000/);
  expect(failed).toMatch(/Rate limit reached for requests/);
  expect(heed.logs.some((l) => l.includes(run.id) && l.includes('model answered after retries'))).toBe(true);
});

test('a 503 sent inside the stream is counted and logged as the provider being unavailable, then retried', async () => {
  const { stored } = await converse(personalities.errorInsideStream);
  expect(stored.content).toBe('Back again.');
  expect(
    heed.logs.some((l) => l.includes('model attempt 1 failed: model_unavailable') && l.includes('Upstream provider is overloaded')),
  ).toBe(true);
  const metrics = await heed.services.metrics.registry.getSingleMetricAsString('heed_model_errors_total');
  expect(metrics).toMatch(/heed_model_errors_total\{kind="model_unavailable"\} [1-9]/);
});

test("a refused request's log line carries the provider's own sentence, which names the fix", async () => {
  const { stored, run } = await converse(personalities.unknownModel);
  expect(stored.error).toBe('model_rejected');
  expect(dialect.requests).toHaveLength(1);
  const line = heed.logs.find((l) => l.includes(run.id) && l.includes('run failed: model_rejected'));
  expect(line).toMatch(/not found, try pulling it first/);
});
