import type { TitleCheckOutcome } from '../../db/generated/client.ts';
import type { DbLike } from '../../db/types.ts';
import type { TitleCheckFacts } from '../../titles/title-writes.ts';
import { itemRowsById } from './items-by-id.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { titleHistory, type TitleHistoryEntry } from './title-history.ts';

/** Most messages a transcript carries (the newest); longer conversations are rare and still open. */
export const TRANSCRIPT_MESSAGES_MAX = 1000;

export interface Transcript {
  conversation: ConversationItem & { visitorTimeZone: string };
  messages: {
    id: string;
    role: 'user' | 'assistant' | 'operator';
    content: string;
    /** why it appeared beyond the role (an intent, a proactive check-in, an operator); null for plain turns */
    provenance: string | null;
    state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
    error: string | null;
    createdAt: string;
    runId: string | null;
  }[];
  runs: {
    id: string;
    status: 'claimed' | 'streaming' | 'completed' | 'failed' | 'awaiting_input' | 'abandoned';
    model: string | null;
    attempts: number;
    promptTokens: number | null;
    completionTokens: number | null;
    costUsd: number | null;
    startedAt: string;
    firstTokenAt: string | null;
    endedAt: string | null;
    error: string | null;
    /** the visitor messages this run answers (a retry's run claims the failed run's messages) */
    claimedMessageIds: string[];
  }[];
  inputRequests: { id: string; question: string; choices: string[]; status: 'open' | 'answered' | 'superseded'; createdAt: string }[];
  todos: { id: string; text: string; status: 'open' | 'done'; createdAt: string; completedAt: string | null }[];
  titleHistory: TitleHistoryEntry[];
  /** the audit's content-free facts of each title check (`TitleCheckFacts`), with its outcome */
  titleChecks: (TitleCheckFacts & { id: string; outcome: TitleCheckOutcome; createdAt: string })[];
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const num = (d: { toNumber(): number } | null) => (d === null ? null : d.toNumber());

/**
 * Everything the console shows of one conversation: its item (for this operator), messages
 * with provenance, every run with model, attempts, tokens, cost and timings, the questions the
 * assistant asked and the todos it kept, the title history and every title check. Null when
 * the conversation does not exist.
 */
export async function loadTranscript(db: DbLike, q: { operatorId: string; conversationId: string }): Promise<Transcript | null> {
  const [row] = await itemRowsById(db, { operatorId: q.operatorId, ids: [q.conversationId] });
  if (!row) return null;
  const where = { conversationId: q.conversationId };
  const [messages, runs, inputRequests, todos, titleChecks, history] = await Promise.all([
    db.message.findMany({
      where,
      orderBy: { seq: 'desc' },
      take: TRANSCRIPT_MESSAGES_MAX,
      select: { id: true, role: true, content: true, provenance: true, state: true, error: true, createdAt: true, runId: true },
    }),
    db.run.findMany({
      where,
      orderBy: { fence: 'asc' },
      select: {
        id: true,
        status: true,
        model: true,
        attempts: true,
        promptTokens: true,
        completionTokens: true,
        costUsd: true,
        startedAt: true,
        firstTokenAt: true,
        endedAt: true,
        error: true,
        messages: { where: { role: 'user' }, orderBy: { seq: 'asc' }, select: { id: true } },
      },
    }),
    db.inputRequest.findMany({ where, orderBy: { createdAt: 'asc' }, select: { id: true, question: true, choices: true, status: true, createdAt: true } }),
    db.todo.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, text: true, status: true, createdAt: true, completedAt: true } }),
    db.titleCheck.findMany({
      where,
      orderBy: { createdAt: 'asc' },
      select: { id: true, outcome: true, model: true, promptTokens: true, completionTokens: true, costUsd: true, latencyMs: true, errorCode: true, createdAt: true },
    }),
    titleHistory(db, { id: row.id, visitorId: row.visitorId, title: row.title, titleSource: row.titleSource }),
  ]);
  return {
    conversation: { ...toConversationItem(row), visitorTimeZone: row.visitorTimeZone },
    messages: messages.reverse().map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
    runs: runs.map(({ messages: claimed, ...r }) => ({
      ...r,
      costUsd: num(r.costUsd),
      startedAt: r.startedAt.toISOString(),
      firstTokenAt: iso(r.firstTokenAt),
      endedAt: iso(r.endedAt),
      claimedMessageIds: claimed.map((m) => m.id),
    })),
    inputRequests: inputRequests.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    todos: todos.map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), completedAt: iso(t.completedAt) })),
    titleHistory: history,
    titleChecks: titleChecks.map((c) => ({ ...c, costUsd: num(c.costUsd), createdAt: c.createdAt.toISOString() })),
  };
}
