import type { Personality } from './dialect-server.ts';
import { sendCompletion, sendError, streamText } from './sse.ts';

const TITLE = { title: 'Opening hours', changed: true };

/** Replies (streamed) are answered by `reply`, a plain answer by default; title requests (not streamed) by `title`. */
export const withTitle =
  (title: Personality, reply: Personality = (res) => streamText(res, ['We open at nine.'])): Personality =>
  (res, body, n) =>
    body.stream ? reply(res, body, n) : title(res, body, n);

/** How model servers answer a title request, one documented behaviour each. */
export const titlePersonalities = {
  /** the OpenAI dialect: JSON-schema output answered as asked */
  asked: withTitle((res) => sendCompletion(res, JSON.stringify(TITLE))),

  /** models that wrap their JSON in a Markdown fence */
  fenced: withTitle((res) => sendCompletion(res, `\`\`\`json\n${JSON.stringify(TITLE)}\n\`\`\``)),

  /** servers without JSON-schema output (they take `json_object`) */
  noJsonSchema: withTitle((res, body) => {
    const format = body.response_format as { type?: string } | undefined;
    if (format?.type === 'json_schema')
      return sendError(res, 400, { message: "response_format type 'json_schema' is not supported", type: 'invalid_request_error' });
    sendCompletion(res, JSON.stringify(TITLE));
  }),

  /** servers without any `response_format`: the model answers in words */
  noResponseFormat: withTitle((res, body) => {
    if (body.response_format)
      return sendError(res, 400, { message: 'Unrecognized request argument supplied: response_format', type: 'invalid_request_error' });
    sendCompletion(res, 'Title: "Opening hours"');
  }),

  /** a model that ignores the format asked and chats instead */
  chatty: withTitle((res) =>
    sendCompletion(res, 'Sure! A good title for the secret-4242 chat would be about opening hours.\nLet me know.'),
  ),
} satisfies Record<string, Personality>;
