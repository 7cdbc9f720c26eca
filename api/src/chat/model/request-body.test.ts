import { expect, test } from 'vitest';
import { compatSetting, type CompatFlag } from './compat-flags.ts';
import { requestBody } from './request-body.ts';
import type { StreamRequest } from './model-stream.ts';
import { TOOLS } from './tools.ts';

const req = (toolChoice: 'auto' | 'none' = 'auto'): StreamRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 100,
  timeoutMs: 1000,
  signal: new AbortController().signal,
  tools: TOOLS,
  toolChoice,
  onDelta: async () => {},
  onRestart: async () => {},
});
const body = (flags: CompatFlag[], choice?: 'auto' | 'none') =>
  requestBody(req(choice), new Set(flags)) as unknown as Record<string, unknown>;

test('OPENAI_COMPAT is a comma-separated list of known flags; a typo is refused at start-up', () => {
  expect(compatSetting.parse(' No-Tools, no-stream-options ,')).toEqual(['no-tools', 'no-stream-options']);
  expect(compatSetting.safeParse('no-tool').success).toBe(false);
});

test('each flag changes the request the way the server takes it', () => {
  expect(body([])).toMatchObject({ max_tokens: 100, stream_options: { include_usage: true }, tool_choice: 'auto' });
  expect(body(['max-completion-tokens'])).toMatchObject({ max_completion_tokens: 100 });
  expect(body(['max-completion-tokens']).max_tokens).toBeUndefined();
  expect(body(['no-stream-options']).stream_options).toBeUndefined();
  expect(body(['no-tools']).tools).toBeUndefined();
  expect(body(['no-tool-choice']).tool_choice).toBeUndefined();
  expect(body(['no-tool-choice']).tools).toBeDefined();
  // a round that must end in text cannot say so without tool_choice: it is asked without tools
  expect(body(['no-tool-choice'], 'none').tools).toBeUndefined();
});
