import type OpenAI from 'openai';
import { classifyModelError } from '../chat/model/model-errors.ts';
import { rejectedParameter } from '../chat/model/rejected-parameter.ts';
import { providerError } from '../chat/model/provider-error.ts';
import type { ModelCapabilities } from '../chat/model/capabilities.ts';
import type { Logger } from '../logging/logger.ts';
import { TITLE_RESPONSE_FORMAT, type titleMessages } from './title-prompt.ts';
import type { TitleSettings } from './title-settings.ts';

/** What one title call came to. */
export type TitleCallResult =
  | { kind: 'answer'; completion: OpenAI.Chat.Completions.ChatCompletion; latencyMs: number /** asked in plain text */; prose: boolean }
  | { kind: 'error'; code: string; cause: unknown; latencyMs: number }
  | { kind: 'interrupted'; latencyMs: number };

/**
 * One structured, non-streaming call with a hard timeout; the SDK's own retries are off
 * (services.ts). Structured output goes as far as the server takes it (a JSON schema, else
 * `json_object`, else plain text): a refusal naming it is learned and the call made again at once.
 */
export async function callTitleModel(
  deps: { openai: OpenAI; capabilities: ModelCapabilities; logger?: Pick<Logger, 'warn'> },
  settings: Pick<TitleSettings, 'model' | 'maxTokens' | 'timeoutMs'>,
  messages: ReturnType<typeof titleMessages>,
  stop: AbortSignal,
): Promise<TitleCallResult> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  for (;;) {
    const flags = deps.capabilities.of(settings.model);
    const format = flags.has('no-response-format') ? undefined : flags.has('no-json-schema') ? JSON_OBJECT : TITLE_RESPONSE_FORMAT;
    const cap = flags.has('max-completion-tokens') ? { max_completion_tokens: settings.maxTokens } : { max_tokens: settings.maxTokens };
    try {
      const completion = await deps.openai.chat.completions.create(
        { model: settings.model, messages, ...cap, ...(format ? { response_format: format } : {}) },
        { signal: AbortSignal.any([stop, timeout]) },
      );
      return { kind: 'answer', completion, latencyMs: latency(), prose: format === undefined };
    } catch (cause) {
      if (stop.aborted) return { kind: 'interrupted', latencyMs: latency() };
      const refused = timeout.aborted ? null : rejectedParameter(cause, { ...cap, response_format: format });
      if (refused && deps.capabilities.learn(settings.model, refused, deps.logger, providerError(cause, messages).message)) continue;
      const code = timeout.aborted ? 'model_timeout' : classifyModelError(cause).code;
      return { kind: 'error', code, cause, latencyMs: latency() };
    }
  }
}

const JSON_OBJECT = { type: 'json_object' } as const;
