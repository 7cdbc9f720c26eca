import { describe, expect, test } from 'vitest';
import { ToolCallAssembler, type ToolCallPart } from './tool-call-assembler.ts';

const assemble = (parts: ToolCallPart[]) => {
  const calls = new ToolCallAssembler();
  for (const p of parts) calls.add(p);
  return calls.result();
};

describe('ToolCallAssembler', () => {
  test('by index, arguments spread over fragments (OpenAI, vLLM), index from 1 (LiteLLM)', () => {
    expect(
      assemble([
        { index: 1, id: 'a', function: { name: 'f', arguments: '{"x"' } },
        { index: 2, id: 'b', function: { name: 'g', arguments: '{}' } },
        { index: 1, function: { arguments: ':1}' } },
      ]),
    ).toEqual([
      { id: 'a', name: 'f', arguments: '{"x":1}' },
      { id: 'b', name: 'g', arguments: '{}' },
    ]);
  });

  test('calls sharing index 0 with their own ids stay apart (Ollama)', () => {
    expect(
      assemble([
        { index: 0, id: 'a', function: { name: 'f', arguments: '{}' } },
        { index: 0, id: 'b', function: { name: 'f', arguments: '{"y":2}' } },
      ]).map((c) => [c.id, c.arguments]),
    ).toEqual([
      ['a', '{}'],
      ['b', '{"y":2}'],
    ]);
  });

  test('without index: fragments continue the last call, a new name opens the next; missing ids are given', () => {
    expect(
      assemble([
        { function: { name: 'f', arguments: '{"a"' } },
        { function: { arguments: ':1}' } },
        { function: { name: 'g', arguments: '{}' } },
      ]),
    ).toEqual([
      { id: 'call_0', name: 'f', arguments: '{"a":1}' },
      { id: 'call_1', name: 'g', arguments: '{}' },
    ]);
  });

  test('an id that arrives after the first fragment of its call joins that call', () => {
    expect(
      assemble([
        { index: 0, function: { name: 'f' } },
        { index: 0, id: 'late', function: { arguments: '{}' } },
      ]),
    ).toEqual([{ id: 'late', name: 'f', arguments: '{}' }]);
  });
});
