import { attentionOf, isUnread, type Attention } from '../shared/attention.ts';
import type { Prisma } from '../db/client.ts';

/** Columns of a message a visitor may see; nothing else ever leaves the server. */
export const messageSelect = {
  id: true,
  seq: true,
  conversationId: true,
  role: true,
  content: true,
  clientMessageId: true,
  state: true,
  provenance: true,
  runId: true,
  error: true,
  createdAt: true,
} satisfies Prisma.MessageSelect;

type MessageRow = Prisma.MessageGetPayload<{ select: typeof messageSelect }>;

export interface MessageView {
  id: string;
  /** total order within the conversation (a decimal string: it is a bigint) */
  seq: string;
  conversationId: string;
  role: 'user' | 'assistant' | 'operator';
  content: string;
  clientMessageId: string | null;
  /** outbox state of a user message: pending → claimed → answered (or failed) */
  state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
  provenance: string | null;
  runId: string | null;
  /** set on a failed reply */
  error: string | null;
  createdAt: string;
}

export function toMessageView(m: MessageRow): MessageView {
  return { ...m, seq: m.seq.toString(), createdAt: m.createdAt.toISOString() };
}

/** The latest run decides live / input needed / failed: one run at a time per conversation. */
export const conversationSelect = {
  id: true,
  title: true,
  titleSource: true,
  excerpt: true,
  lastAssistantAt: true,
  lastReadAt: true,
  createdAt: true,
  updatedAt: true,
  runs: {
    orderBy: { fence: 'desc' },
    take: 1,
    select: { id: true, status: true, leaseUntil: true },
  },
} satisfies Prisma.ConversationSelect;

type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>;

export interface ConversationView {
  id: string;
  title: string | null;
  titleSource: 'first_message' | 'generated' | 'manual' | 'fixed' | null;
  /** first line of the latest reply or failure */
  excerpt: string | null;
  lastAssistantAt: string | null;
  lastReadAt: string | null;
  createdAt: string;
  /** activity order */
  updatedAt: string;
  /** a run is claimed or streaming, within its lease */
  live: boolean;
  /** the id of that run, so clients can match deltas */
  liveRunId: string | null;
  inputNeeded: boolean;
  /** the latest reply failed; `message.retry` asks again */
  failed: boolean;
  unread: boolean;
  attention: Attention;
}

export function toConversationView(c: ConversationRow, now = new Date()): ConversationView {
  const run = c.runs[0];
  const live = !!run && (run.status === 'claimed' || run.status === 'streaming') && run.leaseUntil > now;
  const base = {
    live,
    inputNeeded: run?.status === 'awaiting_input',
    lastAssistantAt: c.lastAssistantAt?.toISOString() ?? null,
    lastReadAt: c.lastReadAt?.toISOString() ?? null,
  };
  return {
    id: c.id,
    title: c.title,
    titleSource: c.titleSource,
    excerpt: c.excerpt,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    liveRunId: live ? run!.id : null,
    failed: run?.status === 'failed',
    unread: isUnread(base),
    attention: attentionOf(base),
    ...base,
  };
}
