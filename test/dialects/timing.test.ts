import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { converse } from '../support/dialects/converse.ts';
import { startDialectServer, type DialectServer } from '../support/dialects/dialect-server.ts';
import { timingPersonalities } from '../support/dialects/timing-personalities.ts';

/**
 * A gap of one second between tokens, five for the first: a model that thinks (quietly, or
 * with keep-alives) is waited for, and paid once; one that only ever sends keep-alives fails.
 */
let dialect: DialectServer;
let heed: TestHeed;
beforeAll(async () => {
  dialect = await startDialectServer();
  heed = await TestHeed.start({
    env: { OPENAI_BASE_URL: dialect.url, MODEL_TIMEOUT_MS: '1000', MODEL_FIRST_TOKEN_TIMEOUT_MS: '5000', MODEL_MAX_ATTEMPTS: '2' },
  });
});
afterAll(async () => {
  await heed?.stop();
  await dialect?.close();
});

test('keep-alive comments while the model thinks, before and between words, keep one request alive', async () => {
  const { stored, run } = await converse(heed, dialect, timingPersonalities.keepAlivesWhileThinking);
  expect(stored).toEqual({ content: 'We open at nine.', error: null });
  expect(run.attempts).toBe(1);
  expect(dialect.requests).toHaveLength(1);
});

test('a model silent for longer than the gap before its first word is waited for', async () => {
  const { stored } = await converse(heed, dialect, timingPersonalities.silentThinker);
  expect(stored).toEqual({ content: 'We open at nine.', error: null });
  expect(dialect.requests).toHaveLength(1);
});

test('a server that only ever sends keep-alives times out at the first-token limit', async () => {
  const { stored, run } = await converse(heed, dialect, timingPersonalities.onlyKeepAlives);
  expect(stored.error).toBe('model_timeout');
  expect(run.attempts).toBe(2);
  expect(heed.logs.some((l) => l.includes(run.id) && l.includes('model attempt 1 failed: model_timeout'))).toBe(true);
});
