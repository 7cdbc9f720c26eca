import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AnswerDeps } from '../run/answer-deps.ts';
import { applyToolCalls } from './apply-tool-calls.ts';
import type { ClaimedBatch } from '../schedule/claim-batch.ts';
import { EmptyReplyError } from './model-errors.ts';
import { ReplyFailedError, streamReply } from './model-stream.ts';
import type { ReplyRelay } from '../run/reply-relay.ts';
import { offeredTools, parseToolCall, type UserInputArgs } from './tools.ts';

/**
 * Most model requests one run makes. Rounds before the last may call tools; the last is sent
 * with `tool_choice: 'none'`, so a model that keeps calling tools still ends with text.
 */
export const MAX_MODEL_ROUNDS = 4;

/** Between the text of two rounds, in the relayed stream and in the stored reply alike. */
const ROUND_SEPARATOR = '\n\n';

export interface LoopResult {
  /** everything the model wrote, all rounds; with a question, the question too */
  text: string;
  attempts: number;
  promptTokens: number | null;
  completionTokens: number | null;
  /** how the model's last answer ended (`stop`, `length` …; see StreamResult) */
  finishReason: string;
  /** set when the run ends waiting for the visitor's answer */
  question: (UserInputArgs & { callId: string }) | null;
}

/**
 * Talks with the model until it answers in text or asks the visitor something: each round
 * streams a reply (text relayed live, retried on transient errors); todo calls are applied
 * (fenced) and their results appended for the next round (so is `handoff_to_human`, offered
 * only where the site enabled it and the conversation is neither private nor held); a `request_user_input` call ends
 * the run; a refused call (invalid arguments, unknown tool) gets an error result the model
 * can correct in the next round. Throws ReplyFailedError when no usable answer came.
 */
export async function runToolLoop(
  deps: AnswerDeps,
  batch: ClaimedBatch,
  context: ChatCompletionMessageParam[],
  io: { signal: AbortSignal; relay: ReplyRelay /** offer `handoff_to_human` (see `handoffOffered`) */; handoff: boolean },
): Promise<LoopResult> {
  let messages = context;
  let text = '';
  const tools = offeredTools({ handoff: io.handoff });
  const usage = { attempts: 0, promptTokens: null as number | null, completionTokens: null as number | null };
  for (let round = 1; ; round++) {
    const last = round === MAX_MODEL_ROUNDS;
    const kept = text;
    let separate = kept !== '';
    // a lease that may have ended by now (the worker froze) aborts the run before it pays for a request
    if (!io.relay.holds() && io.signal.aborted) throw io.signal.reason;
    const reply = await streamReply(
      deps.openai,
      {
        model: deps.model,
        messages,
        maxTokens: deps.maxTokens,
        timeoutMs: deps.timeoutMs,
        firstTokenMs: deps.firstTokenMs,
        signal: io.signal,
        capabilities: deps.capabilities,
        tools,
        toolChoice: last ? 'none' : 'auto',
        // pushed, not awaited: the stream reads on while the relay sends (it merges what comes meanwhile)
        onDelta: async (delta) => {
          if (separate) io.relay.push(ROUND_SEPARATOR);
          separate = false;
          io.relay.push(delta);
        },
        onRestart: async () => {
          separate = kept !== '';
          await io.relay.restart(kept);
        },
      },
      { maxAttempts: deps.maxAttempts, metrics: deps.metrics, logger: deps.logger },
    );
    // every word of this round reached the visitor before the run goes on (tools, the stored reply)
    await io.relay.settled();
    if (io.signal.aborted) throw io.signal.reason;
    usage.attempts += reply.attempts;
    usage.promptTokens = add(usage.promptTokens, reply.promptTokens);
    usage.completionTokens = add(usage.completionTokens, reply.completionTokens);
    if (reply.text !== '') text = kept === '' ? reply.text : kept + ROUND_SEPARATOR + reply.text;

    const calls = last ? [] : reply.toolCalls;
    if (last && reply.toolCalls.length > 0) deps.logger.warn({ toolCalls: reply.toolCalls.length }, 'tool calls ignored in the last round');
    if (calls.length === 0) {
      if (text.trim() === '')
        throw new ReplyFailedError({ code: 'model_empty_reply', transient: true }, usage.attempts, new EmptyReplyError());
      return { text, ...usage, finishReason: reply.finishReason, question: null };
    }
    const outcome = await applyToolCalls(
      deps.db,
      deps.bus,
      batch,
      calls.map((c) => parseToolCall(c, tools)),
    );
    if (outcome.question)
      return {
        text: questionText(text, outcome.question.question),
        ...usage,
        finishReason: reply.finishReason,
        question: outcome.question,
      };
    messages = [
      ...messages,
      {
        role: 'assistant',
        content: reply.text === '' ? null : reply.text,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
      },
      ...outcome.results.map((r) => ({ role: 'tool' as const, tool_call_id: r.callId, content: r.content })),
    ];
  }
}

/**
 * The stored question message: what the model wrote, then the question, unless the text
 * already says it (models often write the question and call the tool too).
 */
export function questionText(prose: string, question: string): string {
  const said = prose.trim();
  if (said === '') return question;
  return said.includes(question.trim()) ? said : `${said}${ROUND_SEPARATOR}${question}`;
}

const add = (a: number | null, b: number | null): number | null => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));
