import type { ReplyPlan } from './plan-reply.ts';

type Delta = Record<string, unknown>;

function chunk(plan: ReplyPlan, delta: Delta, finishReason: string | null = null) {
  return {
    id: plan.id,
    object: 'chat.completion.chunk',
    created: plan.created,
    model: plan.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/**
 * The `data:` payloads of a streamed answer, in order, as OpenAI sends them: a role chunk, content
 * chunks, tool-call fragments (id, type and name on the first fragment of each call), a chunk with
 * the finish reason, and, when asked for, a usage chunk with no choices. `[DONE]` is not included.
 */
export function chunkEvents(plan: ReplyPlan, includeUsage: boolean): object[] {
  const events: object[] = [chunk(plan, { role: 'assistant', content: '' })];
  for (const text of plan.content) events.push(chunk(plan, { content: text }));
  plan.toolCalls.forEach((call, index) => {
    events.push(chunk(plan, { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of call.fragments) events.push(chunk(plan, { tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(chunk(plan, {}, plan.finishReason));
  if (includeUsage) {
    events.push({ id: plan.id, object: 'chat.completion.chunk', created: plan.created, model: plan.model, choices: [], usage: plan.usage });
  }
  return events;
}

/** The non-streaming `chat.completion` body for a plan. */
export function completionBody(plan: ReplyPlan) {
  const toolCalls = plan.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const content = plan.content.join('');
  return {
    id: plan.id,
    object: 'chat.completion',
    created: plan.created,
    model: plan.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: content === '' && toolCalls.length > 0 ? null : content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: plan.finishReason,
      },
    ],
    usage: plan.usage,
  };
}

const DEFAULT_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

/**
 * An OpenAI-style error body.
 * @example errorBody(429) // { error: { message: 'Rate limit reached…', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } }
 */
export function errorBody(status: number, message?: string, type?: string) {
  return {
    error: {
      message: message ?? (status === 429 ? 'Rate limit reached (scripted).' : `Scripted error ${status}.`),
      type: type ?? DEFAULT_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      code: status === 429 ? 'rate_limit_exceeded' : null,
      param: null,
    },
  };
}
