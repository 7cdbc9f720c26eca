import { attentionOf, isInputNeeded, isUnread, type Attention } from '../shared/attention.ts';
import type { Prisma } from '../db/client.ts';
import { asProvenance, type Provenance } from '../shared/provenance.ts';
import { readSources, type CitedSource } from '../shared/citations.ts';
import { messageAttachmentsSelect, toAttachmentView, type AttachmentRow, type AttachmentView } from '../attachments/attachment-view.ts';
import { currentRating, visibleStatus, type Rating, type TeamStatus } from './status-view.ts';

/**
 * A message's own columns a visitor may see: what a message just stored reads back in its
 * `INSERT … RETURNING` (it has no input request yet: one is opened after, pointing at it).
 */
export const messageColumnsSelect = {
  id: true,
  seq: true,
  conversationId: true,
  role: true,
  content: true,
  clientMessageId: true,
  state: true,
  provenance: true,
  provenanceLabel: true,
  runId: true,
  error: true,
  cutShort: true,
  sources: true,
  createdAt: true,
} satisfies Prisma.MessageSelect;

/** Columns of a message a visitor may see, its input request included; nothing else ever leaves the server. */
export const messageSelect = {
  ...messageColumnsSelect,
  inputRequest: { select: { id: true, choices: true, allowFreeText: true, status: true } },
  attachments: messageAttachmentsSelect,
} satisfies Prisma.MessageSelect;

/** A message as read through `messageSelect`; rows stored by a raw statement have no attachments to read yet. */
export type MessageRow = Omit<Prisma.MessageGetPayload<{ select: typeof messageSelect }>, 'attachments'> & {
  attachments?: AttachmentRow[];
};

export type { AttachmentView };

export interface MessageView {
  id: string;
  /** total order within the conversation (a decimal string: it is a bigint) */
  seq: string;
  conversationId: string;
  /** `notice`: a line about the conversation ("Ana joined"): `provenance` says which, `content` is empty */
  role: 'user' | 'assistant' | 'operator' | 'notice';
  content: string;
  clientMessageId: string | null;
  /** outbox state of a user message: pending → claimed → answered (or failed) */
  state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
  /**
   * why the message appeared when it does not answer the visitor's words (null on replies and the
   * visitor's own messages): see `Provenance` in ../shared/provenance.ts
   */
  provenance: Provenance | null;
  /** the label's words: the operator's name, the intent's label, the site's name */
  provenanceLabel: string | null;
  runId: string | null;
  /** set on a failed reply */
  error: string | null;
  /**
   * A reply the model stopped at its token cap: the visitor sees it marked as cut short and,
   * while nothing follows it, may ask for the rest (`message.continue`).
   */
  cutShort: boolean;
  /** the site's pages a reply cites (`[n]` in its text), from the excerpts it was shown; empty for others */
  sources: CitedSource[];
  createdAt: string;
  /** files sent with it (by the visitor, or by an operator with a reply), in the order attached */
  attachments: AttachmentView[];
  /**
   * On the assistant message that asks the visitor something (its `content` is the question):
   * the choices to offer and whether it is still open. Null on every other message.
   */
  inputRequest: MessageInputRequest | null;
}

export interface MessageInputRequest {
  /** pass it as `answersRequestId` to `message.send` to answer */
  id: string;
  choices: string[];
  allowFreeText: boolean;
  /** `answered` also covers a question superseded by a newer one: either way it takes no answer */
  status: 'open' | 'answered';
}

export function toMessageView(m: MessageRow): MessageView {
  const { inputRequest: r, attachments, ...columns } = m;
  return {
    ...columns,
    attachments: (attachments ?? []).map((a) => toAttachmentView(a)),
    provenance: asProvenance(m.provenance),
    sources: readSources(m.sources),
    seq: m.seq.toString(),
    createdAt: m.createdAt.toISOString(),
    inputRequest: r && { id: r.id, choices: r.choices, allowFreeText: r.allowFreeText, status: r.status === 'open' ? 'open' : 'answered' },
  };
}

/** Most open todos a conversation view carries (newest kept; `todo_add` refuses more than this anyway). */
export const VIEW_TODOS_MAX = 20;

/**
 * The latest run decides streaming / failed (one run at a time per conversation); live also
 * covers visitor messages the pipeline holds (`OpenItems.awaitingReply`). The open input
 * request stays open until answered; input needed (the attention state) clears once viewed.
 */
export const conversationSelect = {
  id: true,
  title: true,
  titleSource: true,
  excerpt: true,
  lastAssistantAt: true,
  lastReadAt: true,
  createdAt: true,
  updatedAt: true,
  waitingSince: true,
  private: true,
  status: true,
  snoozedUntil: true,
  resolvedAt: true,
  rating: true,
  ratedAt: true,
  heldBy: { select: { name: true } },
  runs: {
    orderBy: { fence: 'desc' },
    take: 1,
    select: { id: true, status: true, leaseUntil: true, proactiveId: true },
  },
} satisfies Prisma.ConversationSelect;

/**
 * The open request and open todos of a conversation, read by `withOpenItems` in their own
 * queries: as relations of `conversationSelect` Prisma would issue them concurrently on one
 * transaction's connection, which pg 8 deprecates.
 */
export const openRequestSelect = {
  conversationId: true,
  id: true,
  question: true,
  choices: true,
  allowFreeText: true,
  createdAt: true,
} satisfies Prisma.InputRequestSelect;
export const openTodoSelect = { conversationId: true, id: true, text: true, createdAt: true } satisfies Prisma.TodoSelect;

export interface OpenItems {
  /** the open input request, if any (at most one is open) */
  inputRequest: Prisma.InputRequestGetPayload<{ select: typeof openRequestSelect }> | null;
  /** open todos, newest first, at most VIEW_TODOS_MAX */
  todos: Prisma.TodoGetPayload<{ select: typeof openTodoSelect }>[];
  /**
   * visitor messages wait in the pipeline (`pending`, or `claimed` by a run): a reply is on its
   * way. `failed` ones wait for the visitor's retry, so they do not count.
   */
  awaitingReply: boolean;
}

type SelectedConversation = Prisma.ConversationGetPayload<{ select: typeof conversationSelect }>;
/** The team's columns: status, snooze, resolution and the visitor's rating of it. */
type TeamColumns = 'status' | 'snoozedUntil' | 'resolvedAt' | 'rating' | 'ratedAt';
/**
 * A conversation row as `toConversationView` takes it: `conversationSelect` plus `OpenItems`.
 * `proactiveId` and the team's columns are optional so rows read with older selects still fit
 * (they read as not proactive, `open` and unrated).
 */
export type ConversationRow = Omit<SelectedConversation, 'runs' | TeamColumns> &
  Partial<Pick<SelectedConversation, TeamColumns>> & {
    runs: (Omit<SelectedConversation['runs'][number], 'proactiveId'> & { proactiveId?: string | null })[];
  } & OpenItems;

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
  /**
   * a reply is on its way: a run is claimed or streaming (within its lease), or visitor
   * messages wait for the pipeline (from the moment of sending, through the debounce), unless
   * an operator holds the conversation (then they wait for the person, and nothing is live)
   */
  live: boolean;
  /** the id of the run claimed or streaming, so clients can match deltas; null while messages only wait */
  liveRunId: string | null;
  /**
   * the attention state: `inputRequest` is open and the visitor has not viewed it yet
   * (`inputRequest.createdAt > lastReadAt`); viewing clears it, the question stays open
   */
  inputNeeded: boolean;
  /** the open question, until a send with `answersRequestId` answers it (viewing does not close it) */
  inputRequest: { id: string; question: string; choices: string[]; allowFreeText: boolean; createdAt: string } | null;
  /** open todos of the conversation, newest last, at most 20 */
  openTodos: { id: string; text: string; createdAt: string }[];
  /** the latest reply failed and nothing waits for a new one; `message.retry` asks again */
  failed: boolean;
  unread: boolean;
  attention: Attention;
  /** the assistant handed the conversation to a person who has not taken it over yet */
  waitingForPerson: boolean;
  /** the name of the operator who holds the conversation (took it over); null while the assistant answers */
  heldBy: string | null;
  /** the visitor marked it private (never recalled elsewhere, never model-titled, words hidden from the console) */
  private: boolean;
  /**
   * where it stands for the site's team: `resolved` by an operator (the visitor's next message
   * reopens it), `snoozed` until a time; a snooze whose time has passed reads `open`
   */
  status: TeamStatus;
  /** the visitor's rating of the latest resolution (`conversation.rate`): 1 helpful, -1 not, null not rated */
  rating: Rating | null;
}

export function toConversationView(c: ConversationRow, now = new Date()): ConversationView {
  const run = c.runs[0];
  const running = !!run && (run.status === 'claimed' || run.status === 'streaming') && run.leaseUntil > now;
  // a held conversation's visitor messages wait for the operator, not for a reply on its way
  const live = running || (c.awaitingReply && c.heldBy === null);
  const request = c.inputRequest;
  const base = {
    live,
    waitingForPerson: c.waitingSince !== null,
    inputRequest: request,
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
    liveRunId: running ? run!.id : null,
    // a failed unsolicited message shows nothing: there is no reply the visitor could retry
    failed: run?.status === 'failed' && !run.proactiveId && !live,
    inputRequest: request && {
      id: request.id,
      question: request.question,
      choices: request.choices,
      allowFreeText: request.allowFreeText,
      createdAt: request.createdAt.toISOString(),
    },
    openTodos: c.todos.map((t) => ({ id: t.id, text: t.text, createdAt: t.createdAt.toISOString() })).reverse(),
    unread: isUnread(base),
    inputNeeded: isInputNeeded(base),
    attention: attentionOf(base),
    live,
    lastAssistantAt: base.lastAssistantAt,
    lastReadAt: base.lastReadAt,
    waitingForPerson: base.waitingForPerson,
    heldBy: c.heldBy?.name ?? null,
    private: c.private,
    status: visibleStatus(c, now),
    rating: currentRating(c),
  };
}
