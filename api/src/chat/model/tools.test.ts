import { describe, expect, test } from 'vitest';
import { offeredTools, parseToolCall, TOOLS, userInputArguments } from './tools.ts';

const call = (name: string, args: unknown) => ({ id: 'call_1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('TOOLS', () => {
  test('offers request_user_input, todo_add and todo_complete as function tools with JSON Schema parameters', () => {
    expect(TOOLS.map((t) => t.function.name)).toEqual(['request_user_input', 'todo_add', 'todo_complete']);
    const ask = TOOLS[0]!.function.parameters as { type: string; required: string[]; properties: Record<string, unknown> };
    expect(ask.type).toBe('object');
    expect(ask.required).toEqual(['question']);
    expect(Object.keys(ask.properties)).toEqual(['question', 'choices', 'allow_free_text']);
    expect(JSON.stringify(TOOLS)).not.toContain('$schema');
  });

  test('handoff_to_human is offered only when asked for (the site enabled it), with no arguments to fill in', () => {
    expect(offeredTools({ handoff: false })).toBe(TOOLS);
    const offered = offeredTools({ handoff: true });
    expect(offered.map((t) => t.function.name)).toEqual(['request_user_input', 'todo_add', 'todo_complete', 'handoff_to_human']);
    expect(offered[3]!.function.parameters).toMatchObject({ type: 'object', properties: {} });
    expect(offered[3]!.function.description).toMatch(/person/);
  });
});

describe('parseToolCall', () => {
  test('a question with choices keeps them once each and allows free text unless told otherwise', () => {
    expect(parseToolCall(call('request_user_input', { question: ' Which colour? ', choices: ['Red', 'Blue', 'Red'] }))).toEqual({
      callId: 'call_1',
      name: 'request_user_input',
      args: { question: 'Which colour?', choices: ['Red', 'Blue'], allowFreeText: true },
    });
  });

  test('a question that forbids free text must offer choices, or the visitor could not answer', () => {
    const parsed = parseToolCall(call('request_user_input', { question: 'Sure?', allow_free_text: false }));
    expect(parsed).toMatchObject({ name: 'invalid', error: expect.stringContaining('allow_free_text') });
  });

  test('todo arguments are validated: text is required and bounded, ids are uuids', () => {
    expect(parseToolCall(call('todo_add', { text: 'Email the quote' }))).toEqual({
      callId: 'call_1',
      name: 'todo_add',
      args: { text: 'Email the quote' },
    });
    expect(parseToolCall(call('todo_add', { text: 'x'.repeat(201) }))).toMatchObject({
      name: 'invalid',
      error: expect.stringContaining('text'),
    });
    expect(parseToolCall(call('todo_complete', { id: 'todo-1' }))).toMatchObject({ name: 'invalid', error: expect.stringContaining('id') });
  });

  test('an unknown tool or arguments that are not JSON are refused with a reason the model can act on', () => {
    expect(parseToolCall(call('delete_everything', {}))).toEqual({
      callId: 'call_1',
      name: 'invalid',
      error: 'unknown tool "delete_everything"',
    });
    expect(parseToolCall(call('todo_add', '{"text": "half'))).toEqual({
      callId: 'call_1',
      name: 'invalid',
      error: 'the arguments are not valid JSON',
    });
  });

  test('a tool this run did not offer is refused like an unknown one', () => {
    expect(parseToolCall(call('handoff_to_human', {}))).toEqual({
      callId: 'call_1',
      name: 'invalid',
      error: 'unknown tool "handoff_to_human"',
    });
    expect(parseToolCall(call('handoff_to_human', ''), offeredTools({ handoff: true }))).toEqual({
      callId: 'call_1',
      name: 'handoff_to_human',
      args: {},
    });
  });

  test('a stored question replays as the arguments of the call that asked it', () => {
    expect(JSON.parse(userInputArguments({ question: 'Which colour?', choices: ['Red'], allowFreeText: false }))).toEqual({
      question: 'Which colour?',
      choices: ['Red'],
      allow_free_text: false,
    });
  });
});
