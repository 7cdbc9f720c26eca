import type { ChatRequestBody, RecordedRequest, ScriptedReply, Usage } from './types.ts';

/** The model name reported when a request names none, and the one model `GET /v1/models` lists. */
export const LOCAL_MODEL = 'heed-local';

/** A tool call with its arguments already cut into the fragments that will be streamed. */
export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: string;
  fragments: string[];
}

/** Everything needed to render one answer, streamed or not; pure data. */
export interface ReplyPlan {
  id: string;
  /** seconds, like OpenAI */
  created: number;
  model: string;
  content: string[];
  toolCalls: PlannedToolCall[];
  finishReason: 'stop' | 'tool_calls' | 'length';
  usage: Usage;
}

/**
 * Cuts text into stream chunks that concatenate back to it exactly: `size` code points each, or by
 * default word-ish tokens that carry their leading whitespace, like a real tokenizer's output.
 * @example chunkText('Hi there!') // ['Hi', ' there!']
 */
export function chunkText(text: string, size?: number): string[] {
  if (size === undefined || size <= 0) return text.match(/\s*\S+|\s+$/g) ?? [];
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** A rough, deterministic token count: four characters a token, like OpenAI's rule of thumb. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function promptText(body: ChatRequestBody): string {
  if (!Array.isArray(body.messages)) return '';
  return body.messages.map((m) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''))).join('\n');
}

/** Turns a scripted reply for a request into the plan both the stream and JSON renderers follow. */
export function planReply(req: RecordedRequest, reply: ScriptedReply): ReplyPlan {
  const content = reply.chunks ?? chunkText(reply.text ?? '', reply.chunkSize);
  const toolCalls = (reply.toolCalls ?? []).map((call, index): PlannedToolCall => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    // Real streams split arguments across many deltas; three pieces by default exercises reassembly.
    const size = reply.chunkSize ?? Math.max(1, Math.ceil(args.length / 3));
    return { id: call.id ?? `call_${req.id}_${index}`, name: call.name, arguments: args, fragments: chunkText(args, size) };
  });
  const prompt = reply.usage?.prompt_tokens ?? estimateTokens(promptText(req.body));
  const completion =
    reply.usage?.completion_tokens ?? estimateTokens(content.join('') + toolCalls.map((c) => c.name + c.arguments).join(''));
  return {
    id: `chatcmpl-local-${req.id}`,
    created: Math.floor(req.receivedAt / 1000),
    model: typeof req.body.model === 'string' ? req.body.model : LOCAL_MODEL,
    content,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : (reply.finishReason ?? 'stop'),
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: reply.usage?.total_tokens ?? prompt + completion },
  };
}
