import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { contextSections, type KnowledgeExcerpt, type OpenTodo, type RecallHit } from './context-sections.ts';
import { earlierFilesNote, finalUserContent, type ContextFile } from './turn-content.ts';
import { proactiveSection, unsolicitedLabel, type ProactiveBrief } from '../../proactive/proactive-section.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';
import { toolResult, userInputArguments } from '../model/tools.ts';

/** A stored message as the context builder sees it. */
export interface ContextRow {
  id: string;
  seq: bigint;
  role: 'user' | 'assistant' | 'operator' | 'notice';
  content: string;
  /** an operator message's label: the operator's name (an intent's label, the site's name) */
  provenanceLabel: string | null;
  /** why an assistant-side message appeared unasked (`intent`, `check_in`, `server`…); null on replies */
  provenance?: string | null;
  state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
  /** set on failed replies, which the model never sees */
  error: string | null;
  createdAt: Date;
  /** files sent with it (a batch's images carry their bytes as `dataUrl`) */
  files?: readonly ContextFile[];
}

/** Rough token estimate (≈ 4 characters a token for English); only used to bound history. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4) + 4;

/**
 * History is what was said and answered before this batch: never a claimed row (those are
 * the final turn), never a row that arrived after the claim (`seq` above the claim's
 * watermark, or still pending: it waits for the next run), never a failed reply or a
 * message still waiting for one, never a notice ("Ana joined": a line about the conversation,
 * nobody's words). Note a reply to an earlier batch can have a higher `seq`
 * than a claimed row sent while it streamed; it is history all the same.
 */
export function selectHistory(rows: readonly ContextRow[], claimed: readonly ContextRow[], watermark: bigint): ContextRow[] {
  const claimedIds = new Set(claimed.map((c) => c.id));
  return rows
    .filter((r) => !claimedIds.has(r.id) && r.seq <= watermark && r.role !== 'notice')
    .filter((r) => (r.role === 'user' ? r.state === 'answered' : r.error === null))
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

/** Keeps the newest history that fits the budget, oldest first. */
export function boundHistory(history: readonly ContextRow[], tokenBudget: number): ContextRow[] {
  const kept: ContextRow[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const cost = estimateTokens(history[i]!.content);
    if (used + cost > tokenBudget) break;
    used += cost;
    kept.unshift(history[i]!);
  }
  return kept;
}

/**
 * An operator's words are assistant-side history (they spoke for the site), labelled as a
 * person's, so the model neither repeats nor contradicts them after hand back.
 */
export const operatorLabel = (name: string | null): string => `[${name ?? 'A person'} from the site's team wrote this, not the assistant]`;

const toParam = (r: ContextRow): ChatCompletionMessageParam => {
  if (r.role === 'user') return { role: 'user', content: r.files?.length ? withEarlierFiles(r.content, r.files) : r.content };
  if (r.role === 'operator') return { role: 'assistant', content: `${operatorLabel(r.provenanceLabel)} ${r.content}` };
  const unsolicited = r.provenance ? unsolicitedLabel(r.provenance, r.provenanceLabel) : null;
  return { role: 'assistant', content: unsolicited ? `${unsolicited} ${r.content}` : r.content };
};

/** An earlier message's words and the names of its files (its images are not sent again). */
const withEarlierFiles = (content: string, files: readonly ContextFile[]): string =>
  [content, earlierFilesNote(files)].filter(Boolean).join('\n\n');

/** An input request (a `request_user_input` call) as the context builder sees it. */
export interface ContextRequest {
  toolCallId: string;
  /** the assistant message that asked it */
  messageId: string;
  question: string;
  choices: string[];
  allowFreeText: boolean;
  status: 'open' | 'answered' | 'superseded';
  /** the visitor's message that answered it */
  answerMessageId: string | null;
  createdAt: Date;
}

export interface ContextInput {
  /** the conversation's loaded messages (any order; may include claimed and later rows) */
  rows: readonly ContextRow[];
  /** the run's claimed batch */
  claimed: readonly ContextRow[];
  /** the conversation's highest message `seq` when the batch was claimed */
  watermark: bigint;
  timeZone: string;
  tokenBudget: number;
  systemPrompt?: string;
  /** the input requests asked by (or answered by) the loaded rows; any order */
  requests?: readonly ContextRequest[];
  /** the conversation's open todos, oldest first */
  todos?: readonly OpenTodo[];
  /** recall's hits for this batch, best first */
  recall?: readonly RecallHit[];
  /** the site's excerpts retrieval found for the batch, best first (cited as [1], [2]…) */
  knowledge?: readonly KnowledgeExcerpt[];
  /** the site has knowledge and none of it matched the batch: the model is told to say it does not know */
  knowledgeMissed?: boolean;
  /** the model may hand the conversation to a person (`handoff_to_human` is offered) */
  handoff?: boolean;
  /** set when the run writes an unsolicited message (an intent, a check-in): nothing is claimed */
  proactive?: ProactiveBrief | null;
}

/** The history this run shows the model, oldest first (what recall must look beyond). */
export function historyWindow(input: Pick<ContextInput, 'rows' | 'claimed' | 'watermark' | 'tokenBudget'>): ContextRow[] {
  return joinContinuations(boundHistory(selectHistory(input.rows, input.claimed, input.watermark), input.tokenBudget));
}

/**
 * A reply cut short and the rest the visitor asked for ("Continue") read as the one reply they
 * are: the request row (no words of the visitor's) is dropped and the continuation joins the
 * reply before it, so the model sees neither an empty user turn nor two replies in a row.
 */
export function joinContinuations(history: readonly ContextRow[]): ContextRow[] {
  const out: ContextRow[] = [];
  let joinNext = false;
  for (const row of history) {
    if (row.role === 'user' && row.provenance === 'continue') {
      joinNext = out.at(-1)?.role === 'assistant';
      continue;
    }
    const previous = out.at(-1);
    if (joinNext && previous && row.role === 'assistant' && !row.provenance)
      out[out.length - 1] = { ...previous, content: previous.content + row.content };
    else out.push(row);
    joinNext = false;
  }
  return out;
}

/**
 * The model's messages for one run, in this order:
 * 1. the system prompt;
 * 2. the bounded history, where an answered question is the assistant's `request_user_input`
 *    call followed by a `tool` message with the visitor's answer (same call id), at the place the
 *    answer was given;
 * 3. the context sections (open question, open todos, recall) as a system message, late in the
 *    prompt so the stable prefix (system prompt and history) stays cacheable;
 * 4. when this batch answers a question: that call and its result;
 * 5. the rest of the batch as the final user turn (absent when the batch is only the answer:
 *    the model then continues from the tool result, as after any tool call);
 * 6. for an unsolicited message (no batch), a final system section instead: the visitor did not
 *    write, and why the assistant speaks first (`proactiveSection`).
 * Pure, so causality is unit-tested without a database.
 */
export function buildContext(input: ContextInput): ChatCompletionMessageParam[] {
  const claimed = [...input.claimed].sort((a, b) => (a.seq < b.seq ? -1 : 1));
  const history = historyWindow({ ...input, claimed });
  const requests = input.requests ?? [];
  const byAnswer = new Map(requests.filter((r) => r.status === 'answered' && r.answerMessageId).map((r) => [r.answerMessageId!, r]));
  const byQuestion = new Map(requests.map((r) => [r.messageId, r]));
  const answers = claimed.filter((c) => byAnswer.has(c.id));
  const turn = claimed.filter((c) => !byAnswer.has(c.id));
  const open = requests.find((r) => r.status === 'open') ?? null;
  const sections = contextSections({
    openQuestion: open && { question: open.question, choices: open.choices, allowFreeText: open.allowFreeText, askedAt: open.createdAt },
    todos: input.todos ?? [],
    recall: input.recall ?? [],
    knowledge: input.knowledge ?? [],
    knowledgeMiss: input.knowledgeMissed ? { handoff: input.handoff ?? false } : null,
    timeZone: input.timeZone,
  });

  // History rows and then this batch's answers, so a question directly followed by its answer
  // becomes one assistant turn carrying the call, whichever side of the claim the answer is on.
  const items = [...history, ...answers];
  const render = (from: number, to: number): ChatCompletionMessageParam[] => {
    const out: ChatCompletionMessageParam[] = [];
    for (let i = from; i < to; i++) {
      const row = items[i]!;
      const answered = row.role === 'user' ? byAnswer.get(row.id) : undefined;
      if (answered) {
        const previous = items[i - 1];
        out.push(...answerPair(answered, previous?.id === answered.messageId ? previous.content : null, row.content));
        continue;
      }
      const asked = byQuestion.get(row.id);
      const answerNext =
        asked?.answerMessageId != null && items[i + 1]?.id === asked.answerMessageId && byAnswer.has(asked.answerMessageId);
      if (!answerNext) out.push(toParam(row));
    }
    return out;
  };
  return [
    { role: 'system', content: input.systemPrompt ?? SYSTEM_PROMPT },
    ...render(0, history.length),
    ...(sections ? [{ role: 'system' as const, content: sections }] : []),
    ...render(history.length, items.length),
    ...(turn.length > 0 ? [{ role: 'user' as const, content: finalUserContent(turn, input.timeZone) }] : []),
    ...(input.proactive ? [{ role: 'system' as const, content: proactiveSection(input.proactive) }] : []),
  ];
}

/**
 * The question as the tool call the model made (`content` is its text when the question
 * message sits right before the answer, else null, so the text is never said twice) and the
 * visitor's answer as that call's result.
 */
function answerPair(req: ContextRequest, questionText: string | null, answer: string): ChatCompletionMessageParam[] {
  return [
    {
      role: 'assistant',
      content: questionText,
      tool_calls: [{ id: req.toolCallId, type: 'function', function: { name: 'request_user_input', arguments: userInputArguments(req) } }],
    },
    { role: 'tool', tool_call_id: req.toolCallId, content: toolResult({ answer }) },
  ];
}
