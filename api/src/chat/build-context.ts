import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { pendingTurn } from './pending-turn.ts';
import { SYSTEM_PROMPT } from './system-prompt.ts';

/** A stored message as the context builder sees it. */
export interface ContextRow {
  id: string;
  seq: bigint;
  role: 'user' | 'assistant' | 'operator';
  content: string;
  state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
  /** set on failed replies, which the model never sees */
  error: string | null;
  createdAt: Date;
}

/** Rough token estimate (≈ 4 characters a token for English); only used to bound history. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4) + 4;

/**
 * History is what was said and answered before this batch: never a claimed row (those are
 * the final turn), never a row that arrived after the claim (`seq` above the claim's
 * watermark, or still pending: it waits for the next run), never a failed reply or a
 * message still waiting for one. Note a reply to an earlier batch can have a higher `seq`
 * than a claimed row sent while it streamed; it is history all the same.
 */
export function selectHistory(rows: readonly ContextRow[], claimed: readonly ContextRow[], watermark: bigint): ContextRow[] {
  const claimedIds = new Set(claimed.map((c) => c.id));
  return rows
    .filter((r) => !claimedIds.has(r.id) && r.seq <= watermark)
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

const toParam = (r: ContextRow): ChatCompletionMessageParam =>
  r.role === 'user'
    ? { role: 'user', content: r.content }
    : { role: 'assistant', content: r.role === 'operator' ? `[A human operator wrote] ${r.content}` : r.content };

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
}

/**
 * The model's messages for one run: system prompt, bounded history, and the pending
 * batch as the final user turn. Pure, so causality is unit-tested without a database.
 */
export function buildContext(input: ContextInput): ChatCompletionMessageParam[] {
  const claimed = [...input.claimed].sort((a, b) => (a.seq < b.seq ? -1 : 1));
  const history = boundHistory(selectHistory(input.rows, claimed, input.watermark), input.tokenBudget);
  return [
    { role: 'system', content: input.systemPrompt ?? SYSTEM_PROMPT },
    ...history.map(toParam),
    { role: 'user', content: pendingTurn(claimed, input.timeZone) },
  ];
}
