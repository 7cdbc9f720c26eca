import type { Personality } from './dialect-server.ts';
import { chunk, event, openStream, sendError, streamText } from './sse.ts';

const question = JSON.stringify({ question: 'Which size do you need?', choices: ['Small', 'Large'] });
const todo = (text: string) => JSON.stringify({ text });

/** A plain answer in the OpenAI dialect, for the request after a failure. */
export const plain =
  (text = 'Here is the answer.'): Personality =>
  (res) =>
    streamText(res, [text]);

/**
 * Each documented quirk of a real model server, as that server puts it on the wire. Every
 * one is a behaviour Heed must survive without losing a reply or showing what it should not.
 */
export const personalities = {
  /** Ollama before 0.4.7: tool-call fragments without `index` */
  toolCallsWithoutIndex: ((res) => {
    openStream(res);
    event(res, chunk({ role: 'assistant', content: '' }));
    event(res, chunk({ tool_calls: [{ id: 'call_q', type: 'function', function: { name: 'request_user_input', arguments: '' } }] }));
    for (const part of [question.slice(0, 20), question.slice(20)]) event(res, chunk({ tool_calls: [{ function: { arguments: part } }] }));
    event(res, chunk({}, 'tool_calls'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** current Ollama: every call whole in one chunk at `index: 0`, each with its own id; then the answer */
  toolCallsAllIndexZero: ((res, _body, n) => {
    if (n > 1) return streamText(res, ['Both are on your list.']);
    openStream(res);
    event(res, chunk({ role: 'assistant', content: '' }));
    for (const [id, text] of [
      ['call_1', 'Send the invoice'],
      ['call_2', 'Book the venue'],
    ] as const) {
      event(res, chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'todo_add', arguments: todo(text) } }] }));
    }
    event(res, chunk({}, 'tool_calls'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** several whole calls in the array of one chunk, without index or id; then the answer */
  wholeCallsInOneChunk: ((res, _body, n) => {
    if (n > 1) return streamText(res, ['Noted both.']);
    openStream(res);
    event(
      res,
      chunk({
        role: 'assistant',
        content: '',
        tool_calls: [
          { type: 'function', function: { name: 'todo_add', arguments: todo('Call the bank') } },
          { type: 'function', function: { name: 'todo_add', arguments: todo('Renew the lease') } },
        ],
      }),
    );
    event(res, chunk({}, 'tool_calls'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** DeepSeek-R1 on Ollama / llama.cpp: reasoning inline in `<think>`, tags split across chunks */
  inlineThink: ((res) =>
    streamText(res, [
      '<th',
      'ink>The visitor wants',
      ' the hours. Secret plan.</th',
      'ink>\n\n',
      'We open at nine.',
    ])) satisfies Personality,

  /** vLLM / DeepSeek / OpenRouter: reasoning in `reasoning_content` or `reasoning`, never content */
  reasoningFields: ((res) => {
    openStream(res);
    event(res, chunk({ role: 'assistant', content: '' }));
    event(res, chunk({ reasoning_content: 'Private reasoning A.' }));
    event(res, chunk({ reasoning: 'Private reasoning B.' }));
    event(res, chunk({ content: 'We open at nine.' }));
    event(res, chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }) satisfies Personality,

  /** a server that never sends a finish reason: text, `[DONE]`, end */
  noFinishReason: ((res) => streamText(res, ['We open', ' at nine.'], { finish: null })) satisfies Personality,

  /** `finish_reason: "stop"`, then neither `[DONE]` nor the end of the connection */
  stopWithoutDoneLeftOpen: ((res) => streamText(res, ['We open at nine.'], { done: false, open: true })) satisfies Personality,

  /** the reply reached the token cap: `finish_reason: "length"` */
  cutAtLength: ((res) => streamText(res, ['We open at nine on weekdays and'], { finish: 'length' })) satisfies Personality,

  /** the provider's safety filter stops the reply after some text */
  contentFilter: ((res) => streamText(res, ['Here is how to'], { finish: 'content_filter' })) satisfies Personality,

  /** a rate limit that says when to come back (`Retry-After: 2`), then an answer */
  rateLimitedWithRetryAfter: ((res, _body, n) => {
    if (n > 1) return streamText(res, ['Thanks for waiting.']);
    sendError(
      res,
      429,
      { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
      { 'retry-after': '2' },
    );
  }) satisfies Personality,

  /** OpenRouter: a 200 stream that carries a 503 error event, then an answer */
  errorInsideStream: ((res, _body, n) => {
    if (n > 1) return streamText(res, ['Back again.']);
    openStream(res);
    event(res, { error: { code: 503, message: 'Upstream provider is overloaded' } });
    res.end();
  }) satisfies Personality,

  /** a model name the server does not know (Ollama): refused for good, in the server's words */
  unknownModel: ((res) =>
    sendError(res, 404, { message: 'model "llama9" not found, try pulling it first', type: 'api_error' })) satisfies Personality,

  /** llama.cpp without `--jinja`: tools refused with a 500 that names the flag */
  toolsNeedJinja: ((res, body) => {
    if (body.tools) return sendError(res, 500, { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' });
    streamText(res, ['We open at nine.']);
  }) satisfies Personality,

  /** Ollama with a model without tool support */
  modelWithoutTools: ((res, body) => {
    if (body.tools)
      return sendError(res, 400, { message: 'registry.ollama.ai/library/gemma:2b does not support tools', type: 'api_error' });
    streamText(res, ['We open at nine.']);
  }) satisfies Personality,

  /** vLLM without `--enable-auto-tool-choice`: tools are fine, `tool_choice: "auto"` is not */
  noAutoToolChoice: ((res, body) => {
    if (body.tool_choice === 'auto') {
      return sendError(res, 400, {
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        code: 400,
      });
    }
    streamText(res, ['We open at nine.']);
  }) satisfies Personality,

  /** servers that reject `stream_options` as an unknown argument */
  noStreamOptions: ((res, body) => {
    if (body.stream_options)
      return sendError(res, 400, { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' });
    streamText(res, ['We open at nine.']);
  }) satisfies Personality,

  /** OpenAI o-series: `max_tokens` refused by name, `max_completion_tokens` wanted */
  rejectsMaxTokens: ((res, body) => {
    if (body.max_tokens !== undefined) {
      return sendError(res, 400, {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      });
    }
    streamText(res, ['We open at nine.']);
  }) satisfies Personality,
  /** llama.cpp serving a model without its vision projector: any image part is refused, in its words */
  noImageInput: ((res, body) => {
    const parts = (body.messages as { content?: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    if (parts.some((p) => (p as { type?: string }).type === 'image_url'))
      return sendError(res, 500, {
        code: 500,
        message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
        type: 'server_error',
      });
    streamText(res, ['I cannot see images here: could you describe it?']);
  }) satisfies Personality,
};
