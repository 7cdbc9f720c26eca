import { z } from 'zod';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { wellFormed } from '../../db/well-formed.ts';

/** Longest question, choice and todo the model may write; longer arguments are refused, not cut. */
export const QUESTION_MAX = 500;
export const CHOICE_MAX = 80;
export const CHOICES_MAX = 6;
export const TODO_TEXT_MAX = 200;

/**
 * Tool arguments as the model must send them. One schema per tool is the single source of
 * both the JSON Schema the model is offered and the validation of what it sends back.
 */
export const toolArgs = {
  request_user_input: z
    .object({
      question: z.string().trim().min(1).max(QUESTION_MAX).describe('One short question for the visitor, in their language.'),
      choices: z
        .array(z.string().trim().min(1).max(CHOICE_MAX))
        .max(CHOICES_MAX)
        .optional()
        .describe('Answers the visitor can pick with one click, when the answer is one of a few options.'),
      allow_free_text: z.boolean().optional().describe('Whether the visitor may type an answer of their own (default true).'),
    })
    .refine((a) => a.allow_free_text !== false || (a.choices?.length ?? 0) > 0, {
      message: 'allow_free_text may only be false when choices are given',
      path: ['allow_free_text'],
    }),
  todo_add: z.object({
    text: z.string().trim().min(1).max(TODO_TEXT_MAX).describe('What you promised to do or must follow up on, in one line.'),
  }),
  todo_complete: z.object({
    id: z.string().uuid().describe('The id of an open todo, as listed in the context.'),
  }),
  handoff_to_human: z.object({}),
} as const;

export type ToolName = keyof typeof toolArgs;

const DESCRIPTIONS: Record<ToolName, string> = {
  request_user_input:
    'Ask the visitor a question you need answered before you can continue (a decision or a missing detail). ' +
    'Your reply ends here; the conversation waits for their answer, which comes back as this call’s result.',
  todo_add: 'Remember something you promised to do or must follow up on in this conversation. Returns its id.',
  todo_complete: 'Mark an open todo of this conversation as done, by its id.',
  handoff_to_human:
    'Ask a person from the site’s team to take this conversation over: when the visitor asks for a person, or needs ' +
    'something only a person can do. A person will reply here later; tell the visitor so briefly.',
};

function toolOf(name: ToolName): ChatCompletionFunctionTool {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(toolArgs[name], { io: 'input' });
  return { type: 'function', function: { name, description: DESCRIPTIONS[name], parameters } };
}

/** The function tools offered to the model on every run. */
export const TOOLS: ChatCompletionFunctionTool[] = (['request_user_input', 'todo_add', 'todo_complete'] as const).map(toolOf);

/** Asks for a person; offered only where the site enabled it (see `offeredTools`). */
export const HANDOFF_TOOL = toolOf('handoff_to_human');

/**
 * The tools of one run: every run's, plus `handoff_to_human` when `handoff` (the site enabled
 * it, the conversation is not private and nobody holds it: `handoffOffered`).
 */
export const offeredTools = (o: { handoff: boolean }): ChatCompletionFunctionTool[] => (o.handoff ? [...TOOLS, HANDOFF_TOOL] : TOOLS);

/** A tool call as the model streamed it. */
export interface RawToolCall {
  id: string;
  name: string;
  /** JSON text, possibly invalid */
  arguments: string;
}

/** A tool call after validation: a known tool with valid arguments, or the reason it is refused. */
export type ParsedToolCall =
  | { callId: string; name: 'request_user_input'; args: UserInputArgs }
  | { callId: string; name: 'todo_add'; args: z.infer<(typeof toolArgs)['todo_add']> }
  | { callId: string; name: 'todo_complete'; args: z.infer<(typeof toolArgs)['todo_complete']> }
  | { callId: string; name: 'handoff_to_human'; args: z.infer<(typeof toolArgs)['handoff_to_human']> }
  | { callId: string; name: 'invalid'; error: string };

/** `request_user_input` arguments with the defaults applied. */
export interface UserInputArgs {
  question: string;
  choices: string[];
  allowFreeText: boolean;
}

/**
 * Validates one tool call against the tools this run offered (`offered`, by default every
 * run's `TOOLS`). Never throws: an unknown or unoffered tool, arguments that are not JSON or
 * that fail the schema become `invalid`, and the caller sends the error back to the model as
 * the call's result, so it can correct itself in the next round.
 *
 * @example parseToolCall({ id: 'c1', name: 'todo_add', arguments: '{"text":"Send the invoice"}' })
 * // { callId: 'c1', name: 'todo_add', args: { text: 'Send the invoice' } }
 */
export function parseToolCall(call: RawToolCall, offered: readonly ChatCompletionFunctionTool[] = TOOLS): ParsedToolCall {
  const callId = call.id;
  if (!offered.some((t) => t.function.name === call.name))
    return { callId, name: 'invalid', error: `unknown tool "${call.name.slice(0, 64)}"` };
  let json: unknown;
  try {
    // a model may write a lone surrogate escape too: repaired as a visitor's input is (db/well-formed.ts)
    json = wellFormed(JSON.parse(call.arguments === '' ? '{}' : call.arguments));
  } catch {
    return { callId, name: 'invalid', error: 'the arguments are not valid JSON' };
  }
  const name = call.name as ToolName;
  const parsed = toolArgs[name].safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
    return { callId, name: 'invalid', error: `invalid arguments for ${name}: ${issues.join('; ')}` };
  }
  if (name === 'request_user_input') {
    const a = parsed.data as z.infer<(typeof toolArgs)['request_user_input']>;
    const choices = [...new Set(a.choices ?? [])];
    return { callId, name, args: { question: a.question, choices, allowFreeText: a.allow_free_text ?? true } };
  }
  return { callId, name, args: parsed.data } as ParsedToolCall;
}

/** The JSON text of a tool result the model reads. */
export const toolResult = (value: Record<string, unknown>): string => JSON.stringify(value);

/** The arguments of a stored question, as the tool call that asked it (history replays it). */
export function userInputArguments(q: UserInputArgs): string {
  return JSON.stringify({
    question: q.question,
    ...(q.choices.length > 0 ? { choices: q.choices } : {}),
    allow_free_text: q.allowFreeText,
  });
}
