import { createServer } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startModelServer, type ModelServer } from '../../model-server/server.ts';
import type { ScriptedReply } from '../../model-server/types.ts';
import { classifyModelError, EmptyReplyError, FAILURE_TEXT, ModelTimeoutError, StreamEndedEarlyError } from './model-errors.ts';

/**
 * Every error here is a real one: thrown by the official SDK talking to the local model
 * server (scripted statuses, a hanging reply, a broken stream) or to a closed port.
 */
let server: ModelServer;
let openai: OpenAI;
const PROVIDER_DETAIL = 'org-7f3a internal shard db-12 overloaded';

beforeAll(async () => {
  server = await startModelServer();
  openai = new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server?.close());

/** What the SDK throws for one scripted reply, streamed like the worker streams. */
async function sdkErrorFor(reply: ScriptedReply, client = openai): Promise<unknown> {
  server.script(reply);
  try {
    const stream = await client.chat.completions.create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
    for await (const _chunk of stream) {
      // drain
    }
  } catch (err) {
    return err;
  }
  throw new Error('expected the SDK to throw');
}

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

describe('classifyModelError', () => {
  test('a 429 from the provider is "busy" and retried later', async () => {
    const err = await sdkErrorFor({ error: { status: 429, message: PROVIDER_DETAIL } });
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(classifyModelError(err)).toEqual({ code: 'model_rate_limited', transient: true });
  });

  test('a 500 or 503 from the provider is "could not be reached" and retried later', async () => {
    const e500 = await sdkErrorFor({ error: { status: 500, message: PROVIDER_DETAIL } });
    expect(e500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(classifyModelError(e500)).toEqual({ code: 'model_unavailable', transient: true });
    const e503 = await sdkErrorFor({ error: { status: 503 } });
    expect(classifyModelError(e503)).toEqual({ code: 'model_unavailable', transient: true });
  });

  test('a 408 from the provider is a timeout and retried later', async () => {
    const err = await sdkErrorFor({ error: { status: 408 } });
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(classifyModelError(err)).toEqual({ code: 'model_timeout', transient: true });
  });

  test('a 400 or 401 is a rejected request that retrying cannot fix', async () => {
    const e400 = await sdkErrorFor({ error: { status: 400, message: PROVIDER_DETAIL } });
    expect(e400).toBeInstanceOf(OpenAI.BadRequestError);
    expect(classifyModelError(e400)).toEqual({ code: 'model_rejected', transient: false });
    const e401 = await sdkErrorFor({ error: { status: 401 } });
    expect(e401).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(classifyModelError(e401)).toEqual({ code: 'model_rejected', transient: false });
  });

  test('a provider that cannot be connected to is "could not be reached" and retried later', async () => {
    const offline = new OpenAI({ apiKey: 'test-key', baseURL: await closedPortUrl(), maxRetries: 0 });
    const err = await offline.chat.completions
      .create({ model: 'test-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(classifyModelError(err)).toEqual({ code: 'model_unavailable', transient: true });
  });

  test('the SDK giving up on a hanging provider is a timeout, retried later', async () => {
    const impatient = new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0, timeout: 100 });
    const err = await sdkErrorFor({ hang: true }, impatient);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(classifyModelError(err)).toEqual({ code: 'model_timeout', transient: true });
  });

  test('a stream that breaks off mid-reply is retried later', async () => {
    const err = await sdkErrorFor({ text: 'This reply will never finish properly', error: { status: 500, afterChunks: 3 } });
    // fetch reports the cut as a plain error ("terminated"), not as an SDK error class
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(OpenAI.APIError);
    expect(classifyModelError(err)).toEqual({ code: 'model_error', transient: true });
  });

  test('an empty reply and our own reply deadline are named and retried later', () => {
    expect(classifyModelError(new EmptyReplyError())).toEqual({ code: 'model_empty_reply', transient: true });
    expect(classifyModelError(new ModelTimeoutError(60_000))).toEqual({ code: 'model_timeout', transient: true });
  });

  test('a stream that closed without a finish reason is an incomplete reply, retried later', () => {
    expect(classifyModelError(new StreamEndedEarlyError())).toEqual({ code: 'model_error', transient: true });
  });

  test('anything unrecognised is a generic error, still retried', () => {
    expect(classifyModelError(new TypeError('boom'))).toEqual({ code: 'model_error', transient: true });
    expect(classifyModelError('a string')).toEqual({ code: 'model_error', transient: true });
  });

  test('what the visitor reads for a failure is our own sentence, never the provider’s message', async () => {
    for (const status of [400, 429, 500]) {
      const err = await sdkErrorFor({ error: { status, message: PROVIDER_DETAIL } });
      expect(String((err as Error).message)).toContain(PROVIDER_DETAIL); // the SDK does carry it…
      const text = FAILURE_TEXT[classifyModelError(err).code];
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toContain(PROVIDER_DETAIL); // …but the visitor never sees it
      expect(text).not.toMatch(/\b(?:4\d\d|5\d\d)\b/);
    }
  });
});
