import { z } from 'zod';

/**
 * What a model server does not take, each with the way Heed asks instead:
 * - `no-tools`: no function tools (answers in text; questions and todos become plain text);
 * - `no-tool-choice`: tools offered without `tool_choice` (vLLM without `--enable-auto-tool-choice`);
 * - `no-stream-options`: no `stream_options` (no token usage in streams);
 * - `max-completion-tokens`: the reply cap sent as `max_completion_tokens` (OpenAI's o-series);
 * - `no-json-schema`: titles asked with `response_format: json_object` instead of a JSON schema;
 * - `no-response-format`: titles asked in plain text (the title read from the answer's words).
 */
export const COMPAT_FLAGS = [
  'no-tools',
  'no-tool-choice',
  'no-stream-options',
  'max-completion-tokens',
  'no-json-schema',
  'no-response-format',
] as const;
export type CompatFlag = (typeof COMPAT_FLAGS)[number];

/**
 * `OPENAI_COMPAT`: a comma-separated list of flags declared up front (spaces and case ignored).
 * @example compatSetting.parse('no-tools, no-stream-options') // ['no-tools', 'no-stream-options']
 */
export const compatSetting = z
  .string()
  .max(200)
  .transform((v) =>
    v
      .split(',')
      .map((f) => f.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(COMPAT_FLAGS)));

/** What each flag changes, in the words of the warn line and `model:check`. */
export const FALLBACK_OF: Record<CompatFlag, { parameter: string; fallback: string }> = {
  'no-tools': { parameter: 'tools', fallback: 'answers without tools: questions and todos as plain text' },
  'no-tool-choice': { parameter: 'tool_choice', fallback: 'tools offered without tool_choice' },
  'no-stream-options': { parameter: 'stream_options', fallback: 'streams without usage counts' },
  'max-completion-tokens': { parameter: 'max_tokens', fallback: 'max_completion_tokens' },
  'no-json-schema': { parameter: 'response_format json_schema', fallback: 'titles asked for json_object' },
  'no-response-format': { parameter: 'response_format', fallback: 'titles asked in plain text' },
};
