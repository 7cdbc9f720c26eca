import OpenAI from 'openai';
import type { CompatFlag } from './compat-flags.ts';

/** Phrases servers use when a model has no tool support, or tools need a flag the server lacks. */
const NO_TOOLS =
  /does not support tools|tools? (?:are |is )?not supported|tools param requires|--jinja|tool use is not supported|function calling is not (?:supported|enabled)/i;
/** vLLM without `--enable-auto-tool-choice`, and servers that name `tool_choice` as unsupported */
const NO_TOOL_CHOICE = /enable-auto-tool-choice|tool_choice/i;
/** structured output refused: by parameter name, or by the kind of output asked */
const RESPONSE_FORMAT = /response_format|json_schema|json_object|structured output/i;

/**
 * A model without vision, or a server that takes only string content: llama.cpp ("image input is
 * not supported"), vLLM ("not a multimodal model"), Ollama ("does not support images"), and
 * servers whose schema wants `content` as a string.
 */
const NO_IMAGES =
  /image_url|image input|images? (?:are |is )?not supported|does not support images?|not a multimodal|multimodal|vision|content must be a string|expected string/i;

/**
 * The flag that answers a refusal of a parameter Heed sent, or null when the error is something
 * else: a 4xx (or llama.cpp's 500 about `--jinja`) whose error `param` or message names
 * `max_tokens`, `stream_options`, `tool_choice`, tools or `response_format`. Only parameters actually sent count.
 * @example rejectedParameter(err400MaxTokens, { max_tokens: 100 }) === 'max-completion-tokens'
 */
export function rejectedParameter(
  err: unknown,
  sent: {
    max_tokens?: unknown;
    stream_options?: unknown;
    tools?: unknown;
    tool_choice?: unknown;
    response_format?: { type?: string } | null;
    messages?: readonly unknown[];
  },
): CompatFlag | null {
  if (!(err instanceof OpenAI.APIError) || typeof err.status !== 'number') return null;
  if (err.status < 400 || err.status === 401 || err.status === 403 || err.status === 429 || err.status > 500) return null;
  const body = typeof err.error === 'object' && err.error !== null ? (err.error as { message?: unknown }) : {};
  const said = `${err.param ?? ''} ${typeof body.message === 'string' ? body.message : ''}`;
  if (
    sent.max_tokens !== undefined &&
    /max_completion_tokens|\bmax_tokens\b/.test(said) &&
    (err.param === 'max_tokens' || /max_completion_tokens/.test(said))
  )
    return 'max-completion-tokens';
  if (sent.stream_options !== undefined && /stream_options/.test(said)) return 'no-stream-options';
  if (sent.tool_choice !== undefined && NO_TOOL_CHOICE.test(said)) return 'no-tool-choice';
  if (sent.tools !== undefined && NO_TOOLS.test(said)) return 'no-tools';
  if (sent.response_format && RESPONSE_FORMAT.test(said))
    return sent.response_format.type === 'json_schema' ? 'no-json-schema' : 'no-response-format';
  if (holdsImages(sent.messages) && NO_IMAGES.test(said)) return 'no-image-input';
  // a 500 is the server's trouble unless it named a parameter above
  return null;
}

/** Whether any message sent had an image part. */
function holdsImages(messages: readonly unknown[] | undefined): boolean {
  return (messages ?? []).some((m) => {
    const content = (m as { content?: unknown }).content;
    return Array.isArray(content) && content.some((part) => (part as { type?: unknown })?.type === 'image_url');
  });
}
