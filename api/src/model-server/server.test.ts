import OpenAI, { APIError, APIUserAbortError } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startModelServer, type ModelServer } from './server.ts';

let server: ModelServer;
let openai: OpenAI;
const messages = [{ role: 'user' as const, content: 'Hello there' }];

beforeAll(async () => {
  server = await startModelServer();
  openai = new OpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
});
afterEach(() => server.reset());
afterAll(() => server.close());

async function streamText(params: { signal?: AbortSignal } = {}) {
  const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true }, { signal: params.signal });
  const deltas: string[] = [];
  for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
  return deltas;
}

describe('streaming text', () => {
  it('streams a scripted text chunk by chunk and it reassembles exactly', async () => {
    const text = 'Hello, world!\n\nHow  are you today?';
    server.script({ text, chunkDelayMs: 1 }, { text, chunkSize: 4 });
    const words = await streamText();
    expect(words.join('')).toBe(text);
    expect(words.filter(Boolean).length).toBeGreaterThan(4);
    expect((await streamText()).filter(Boolean)).toEqual(['Hell', 'o, w', 'orld', '!\n\nH', 'ow  ', 'are ', 'you ', 'toda', 'y?']);
  });

  it('sends explicit chunks as they are, with the assistant role first and finish_reason stop last', async () => {
    server.script({ chunks: ['a', 'bc', ''] });
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.slice(1, -1).map((c) => c.choices[0]?.delta.content)).toEqual(['a', 'bc', '']);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'm')).toBe(true);
  });

  it('adds a usage chunk when include_usage is set, honouring a scripted override', async () => {
    server.script({ text: 'four tokens of text', usage: { prompt_tokens: 7 } });
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
  });

  it('records the body the SDK sent, with arrival and finish times', async () => {
    server.script({ text: 'ok' });
    await streamText();
    const [req] = await server.waitForRequests(1);
    expect(req?.body).toEqual({ model: 'm', messages, stream: true });
    expect(req?.headers.authorization).toBe('Bearer test');
    expect(req?.aborted).toBe(false);
    expect(req?.finishedAt).toBeGreaterThanOrEqual(req?.receivedAt ?? Infinity);
  });
});

describe('tool calls', () => {
  it('streams tool-call fragments that assemble into calls, ending with finish_reason tool_calls', async () => {
    server.script({
      toolCalls: [
        { id: 'call_weather', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
        { name: 'noop', arguments: '{}' },
      ],
    });
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true });
    const calls: { id?: string; name: string; arguments: string }[] = [];
    let fragments = 0;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      finish = choice?.finish_reason ?? finish;
      for (const delta of choice?.delta.tool_calls ?? []) {
        const call = (calls[delta.index] ??= { name: '', arguments: '' });
        if (delta.id) call.id = delta.id;
        call.name += delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
        fragments++;
      }
    }
    expect(calls).toEqual([
      { id: 'call_weather', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      { id: 'call_1_1', name: 'noop', arguments: '{}' },
    ]);
    expect(fragments).toBeGreaterThan(4);
    expect(finish).toBe('tool_calls');
  });
});

describe('failures', () => {
  it.each([429, 500])('surfaces a scripted %i as an APIError with that status', async (status) => {
    server.script({ error: { status, message: `scripted ${status}` } });
    const error = await openai.chat.completions.create({ model: 'm', messages, stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(status);
    expect((error as APIError).message).toContain(`scripted ${status}`);
  });

  it('breaks a stream off mid-way, which the for-await loop sees as an error', async () => {
    server.script({ text: 'one two three four', error: { status: 500, afterChunks: 3 } });
    const received: string[] = [];
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true });
    const loop = async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(loop()).rejects.toThrow();
    expect(received.join('')).toBe('one two');
    expect(server.requests[0]?.aborted).toBe(false);
  });

  it('answers malformed JSON with a 400 OpenAI-style error', async () => {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: '{"model":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('client aborts', () => {
  it('records an aborted stream and keeps serving', async () => {
    server.script({ text: 'a b c d e f g h', chunkDelayMs: 20 });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create({ model: 'm', messages, stream: true }, { signal: controller.signal });
    const loop = async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) controller.abort();
    };
    await loop().catch(() => undefined);
    await vi.waitFor(() => expect(server.requests[0]?.aborted).toBe(true));
    await vi.waitFor(() => expect(server.inFlight()).toBe(0));
    server.script({ text: 'still here' });
    expect((await streamText()).join('')).toBe('still here');
  });

  it('ends a hanging request when the client aborts', async () => {
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = openai.chat.completions.create({ model: 'm', messages, stream: true }, { signal: controller.signal });
    await server.waitForRequests(1);
    expect(server.inFlight()).toBe(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await vi.waitFor(() => expect(server.requests[0]?.aborted).toBe(true));
    expect(server.inFlight()).toBe(0);
  });
});

describe('non-streaming and other endpoints', () => {
  it('returns the scripted text as the content of a json_schema request', async () => {
    server.script({ text: '{"title":"Shipping to Canada"}', delayMs: 5 });
    const completion = await openai.chat.completions.create({
      model: 'm',
      messages,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'title',
          strict: true,
          schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
        },
      },
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ title: 'Shipping to Canada' });
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    expect(server.requests[0]?.body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('lists its model and reports health', async () => {
    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['heed-local']);
    const health = await fetch(server.url.replace(/\/v1$/, '/healthz'));
    expect(await health.json()).toEqual({ ok: true });
  });
});

describe('default responder', () => {
  it('echoes the last user message', async () => {
    const completion = await openai.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'an answer' },
        { role: 'user', content: 'What does shipping cost?' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('You said: What does shipping cost?');
  });

  it('answers each item of an "Unanswered messages" batch on its own line', async () => {
    const batch = [
      'Unanswered messages — there are 3 items, cover each one.',
      '',
      '1. [Mon 10:42] Hi!',
      '2. [Mon 10:43] What does shipping to Canada cost?',
      '3. [Mon 10:45] Also, do you sell gift cards?',
    ].join('\n');
    const stream = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: batch }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.split('\n')).toEqual([
      '1. About “Hi!”: noted.',
      '2. About “What does shipping to Canada cost?”: noted.',
      '3. About “Also, do you sell gift cards?”: noted.',
    ]);
  });

  it('can be replaced, and reset restores it', async () => {
    server.setResponder((req) => ({ text: `request ${req.id}` }));
    expect((await streamText()).join('')).toBe('request 1');
    server.reset();
    expect((await streamText()).join('')).toBe('You said: Hello there');
  });
});

describe('lifecycle', () => {
  it('answers with a 500 when a responder throws', async () => {
    server.setResponder(() => {
      throw new Error('boom');
    });
    const error = await openai.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
    expect((error as APIError).status).toBe(500);
    expect((error as APIError).message).toContain('boom');
  });

  it('close ends hanging requests as aborted and stops listening', async () => {
    const own = await startModelServer({ respond: () => ({ hang: true }) });
    const client = new OpenAI({ apiKey: 'test', baseURL: own.url, maxRetries: 0 });
    const pending = client.chat.completions.create({ model: 'm', messages, stream: true }).catch((e: unknown) => e);
    await own.waitForRequests(1);
    await own.close();
    expect(await pending).toBeInstanceOf(APIError);
    expect(own.requests[0]?.aborted).toBe(true);
    await vi.waitFor(() => expect(own.inFlight()).toBe(0));
    await expect(fetch(own.url.replace(/\/v1$/, '/healthz'))).rejects.toThrow();
  });

  it('with record: false (the demo model of `npm start`) answers as usual and keeps no prompt', async () => {
    const own = await startModelServer({ record: false });
    const client = new OpenAI({ apiKey: 'test', baseURL: own.url, maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'm', messages });
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(own.requests).toEqual([]);
    await own.close();
  });

  it('rejects waitForRequests when too few requests arrive in time', async () => {
    await expect(server.waitForRequests(1, 20)).rejects.toThrow('expected 1 requests within 20 ms, got 0');
  });
});
