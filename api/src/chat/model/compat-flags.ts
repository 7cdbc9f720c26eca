import { z } from 'zod';

/**
 * What a model server does not take, each with the way Heed asks instead:
 * - `no-tools`: no function tools (answers in text; questions and todos become plain text);
 * - `no-tool-choice`: tools offered without `tool_choice` (vLLM without `--enable-auto-tool-choice`);
 * - `no-stream-options`: no `stream_options` (no token usage in streams);
 * - `max-completion-tokens`: the reply cap sent as `max_completion_tokens` (OpenAI's o-series);
 * - `no-json-schema`: titles asked with `response_format: json_object` instead of a JSON schema;
 * - `no-response-format`: titles asked in plain text (the title read from the answer's words);
 * - `no-image-input`: no image parts (a model without vision, or a server that takes only string
 *   content): each image becomes a short note that the model cannot see it.
 */
export const COMPAT_FLAGS = [
  'no-tools',
  'no-tool-choice',
  'no-stream-options',
  'max-completion-tokens',
  'no-json-schema',
  'no-response-format',
  'no-image-input',
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

/**
 * What each flag changes: the parameter and how Heed asks instead (the warn line and `model:check`),
 * and what it means for the console's users (`consequence`; `featuresOff` when a feature is lost,
 * not just a parameter sent another way).
 */
export const FALLBACK_OF: Record<CompatFlag, { parameter: string; fallback: string; featuresOff: boolean; consequence: string }> = {
  'no-tools': {
    parameter: 'tools',
    fallback: 'answers without tools: questions and todos as plain text',
    featuresOff: true,
    consequence:
      "Questions to the visitor, todos and the model's own hand-off to a person are off: the model answers in plain text. Visitors can still ask for a person with the widget's button.",
  },
  'no-tool-choice': {
    parameter: 'tool_choice',
    fallback: 'tools offered without tool_choice',
    featuresOff: false,
    consequence: 'Tools are offered without tool_choice; every feature stays on.',
  },
  'no-stream-options': {
    parameter: 'stream_options',
    fallback: 'streams without usage counts',
    featuresOff: true,
    consequence: 'Streamed replies report no token counts: reply costs are estimated from the worst case.',
  },
  'max-completion-tokens': {
    parameter: 'max_tokens',
    fallback: 'max_completion_tokens',
    featuresOff: false,
    consequence: 'The reply length cap is sent as max_completion_tokens; every feature stays on.',
  },
  'no-json-schema': {
    parameter: 'response_format json_schema',
    fallback: 'titles asked for json_object',
    featuresOff: false,
    consequence: 'Titles are asked for as a JSON object instead of a JSON schema; every feature stays on.',
  },
  'no-response-format': {
    parameter: 'response_format',
    fallback: 'titles asked in plain text',
    featuresOff: false,
    consequence: "Titles are asked for in plain text and read from the answer's words.",
  },
  'no-image-input': {
    parameter: 'image content parts',
    fallback: 'images replaced by a note that the model cannot see them',
    featuresOff: true,
    consequence:
      'The model is not shown the images visitors attach: it is told an image is there that it cannot see, and asks the visitor to describe it when it matters. PDFs and text files still reach it as text.',
  },
};
