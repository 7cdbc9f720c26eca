import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startModelServer, type ModelServer } from '../../model-server/server.ts';
import { streamReply, type StreamRequest } from './model-stream.ts';
import { questionText } from './tool-loop.ts';
import { TOOLS } from './tools.ts';

let server: ModelServer;
let openai: OpenAI;
beforeAll(async () => {
  server = await startModelServer();
  openai = new OpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

function request(deltas: string[] = []): StreamRequest {
  return {
    model: 'test-model',
    messages: [{ role: 'user', content: 'hi' }],
    maxTokens: 100,
    timeoutMs: 5000,
    signal: new AbortController().signal,
    tools: TOOLS,
    onDelta: async (t) => void deltas.push(t),
    onRestart: async () => {},
  };
}

describe('streamReply with tools', () => {
  test('tool calls streamed in fragments come back whole, in order, with their ids, beside the text', async () => {
    server.script({
      text: 'Let me note that.',
      chunkSize: 2,
      toolCalls: [
        { id: 'call_a', name: 'todo_add', arguments: { text: 'Send the invoice by Friday' } },
        { id: 'call_b', name: 'request_user_input', arguments: { question: 'Which address?', choices: ['Home', 'Office'] } },
      ],
    });
    const deltas: string[] = [];
    const result = await streamReply(openai, request(deltas), { maxAttempts: 1 });
    expect(result.text).toBe('Let me note that.');
    expect(deltas.join('')).toBe('Let me note that.');
    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'todo_add', arguments: '{"text":"Send the invoice by Friday"}' },
      { id: 'call_b', name: 'request_user_input', arguments: '{"question":"Which address?","choices":["Home","Office"]}' },
    ]);
  });

  test('a reply that is only a tool call is not an empty reply', async () => {
    server.script({ toolCalls: [{ id: 'call_q', name: 'request_user_input', arguments: { question: 'Size?' } }] });
    const result = await streamReply(openai, request(), { maxAttempts: 1 });
    expect(result.text).toBe('');
    expect(result.toolCalls.map((c) => c.id)).toEqual(['call_q']);
  });

  test('the tools and the tool choice are offered to the model', async () => {
    server.script({ text: 'ok' });
    await streamReply(openai, { ...request(), toolChoice: 'none' }, { maxAttempts: 1 });
    const body = server.requests[0]!.body as { tools?: { function: { name: string } }[]; tool_choice?: string };
    expect(body.tools?.map((t) => t.function.name)).toEqual(['request_user_input', 'todo_add', 'todo_complete']);
    expect(body.tool_choice).toBe('none');
  });
});

describe('questionText', () => {
  test('the stored question message is the question, after any text the model wrote, never said twice', () => {
    expect(questionText('', 'Which colour?')).toBe('Which colour?');
    expect(questionText('Happy to help.', 'Which colour?')).toBe('Happy to help.\n\nWhich colour?');
    expect(questionText('Happy to help. Which colour?', 'Which colour?')).toBe('Happy to help. Which colour?');
  });
});
