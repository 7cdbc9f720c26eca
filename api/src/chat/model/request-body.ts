import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompatFlag } from './compat-flags.ts';
import { withoutImages } from './without-images.ts';

/** What a reply request asks for, whatever the server calls it (a part of model-stream's StreamRequest). */
export interface ReplyAsk {
  model: string;
  messages: ChatCompletionMessageParam[];
  maxTokens: number;
  tools?: ChatCompletionFunctionTool[];
  toolChoice?: 'auto' | 'none';
}

/**
 * The streamed chat-completions request for `req`, shaped by what the server takes: tools only
 * where it has them (and, without `tool_choice`, not at all in a round that must end in text),
 * the reply cap under the name it knows, usage counts only where `stream_options` is accepted.
 */
export function requestBody(req: ReplyAsk, flags: ReadonlySet<CompatFlag>): ChatCompletionCreateParamsStreaming {
  const choice = req.toolChoice ?? 'auto';
  const offerTools = Boolean(req.tools?.length) && !flags.has('no-tools') && !(flags.has('no-tool-choice') && choice === 'none');
  return {
    model: req.model,
    messages: flags.has('no-image-input') ? withoutImages(req.messages) : req.messages,
    ...(flags.has('max-completion-tokens') ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }),
    stream: true,
    ...(flags.has('no-stream-options') ? {} : { stream_options: { include_usage: true } }),
    ...(offerTools ? { tools: req.tools, ...(flags.has('no-tool-choice') ? {} : { tool_choice: choice }) } : {}),
  };
}
