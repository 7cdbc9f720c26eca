import { messageAttachmentsSelect, toAttachmentView, type AttachmentView } from '../../attachments/attachment-view.ts';
import type { TitleCheckOutcome } from '../../db/generated/client.ts';
import type { DbLike } from '../../db/types.ts';
import type { TitleCheckFacts } from '../../titles/title-writes.ts';
import type { SiteScope } from '../../operators/site-access.ts';
import { asProvenance, type Provenance } from '../../shared/provenance.ts';
import { itemRowsById } from './items-by-id.ts';
import { toConversationItem, type ConversationItem } from './item.ts';
import { titleHistory, type TitleHistoryEntry } from './title-history.ts';
import { readRetrieved, readSources, type RetrievedExcerpt } from '../../shared/citations.ts';
import { notesOf, type NoteView } from '../../inbox/notes.ts';

/** Most messages a transcript carries (the newest); longer conversations are rare and still open. */
export const TRANSCRIPT_MESSAGES_MAX = 1000;

/**
 * The head of a transcript: the conversation as this operator's list shows it (with `heldBy`,
 * `waitingSince`, `private`) and the visitor's time zone. `takeOver` and `handBack` answer it.
 */
export type TranscriptHead = ConversationItem & { visitorTimeZone: string };

export interface Transcript {
  conversation: TranscriptHead;
  /** the operator who took it over (same as `conversation.heldBy`) */
  heldBy: { id: string; name: string } | null;
  /** since when it waits for a person (same as `conversation.waitingSince`) */
  waitingSince: string | null;
  /** the visitor marked it private: every text below is '' (messages say `redacted`), the metadata stays */
  private: boolean;
  messages: {
    id: string;
    /** `notice`: a line about the conversation ("Ana joined"); `provenance` says which, content is '' */
    role: 'user' | 'assistant' | 'operator' | 'notice';
    /** '' when `redacted` */
    content: string;
    /** the words were withheld: the conversation is private */
    redacted: boolean;
    /** why it appeared beyond the role (an operator, an intent, a check-in, a notice); null for plain turns */
    provenance: Provenance | null;
    /** the label's words: the operator's name, the intent's label, the site's name */
    provenanceLabel: string | null;
    state: 'pending' | 'claimed' | 'answered' | 'failed' | null;
    error: string | null;
    createdAt: string;
    runId: string | null;
    /** files sent with it; in a private conversation their names and addresses are withheld ('' and null) */
    attachments: AttachmentView[];
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
    /** how the model's last answer ended: `stop`, `tool_calls`, `length` (cut short), `content_filter`, `none`; null before it ended */
    finishReason: string | null;
    error: string | null;
    /** the visitor messages this run answers (a retry's run claims the failed run's messages) */
    claimedMessageIds: string[];
    /** the site's excerpts the run was shown, numbered as the model saw them, and whether its reply cited each (none in a private conversation) */
    knowledge: (RetrievedExcerpt & { cited: boolean })[];
  }[];
  inputRequests: { id: string; question: string; choices: string[]; status: 'open' | 'answered' | 'superseded'; createdAt: string }[];
  todos: { id: string; text: string; status: 'open' | 'done'; createdAt: string; completedAt: string | null }[];
  titleHistory: TitleHistoryEntry[];
  /** the audit's content-free facts of each title check (`TitleCheckFacts`), with its outcome */
  titleChecks: (TitleCheckFacts & { id: string; outcome: TitleCheckOutcome; createdAt: string })[];
  /** the team's internal notes, oldest first: the team's own words, shown in private conversations too */
  notes: NoteView[];
}

/** The excerpts a run was shown, each marked when one of the run's replies cited it. */
function runKnowledge(retrieved: unknown, written: { role: string; sources: unknown }[]): (RetrievedExcerpt & { cited: boolean })[] {
  const cited = new Set(written.filter((m) => m.role === 'assistant').flatMap((m) => readSources(m.sources).map((c) => c.n)));
  return readRetrieved(retrieved).map((e) => ({ ...e, cited: cited.has(e.n) }));
}

const iso = (d: Date | null) => d?.toISOString() ?? null;
const num = (d: { toNumber(): number } | null) => (d === null ? null : d.toNumber());

/**
 * Everything the console shows of one conversation: its item (for this operator), messages
 * with provenance, every run with model, attempts, tokens, cost and timings, the questions the
 * assistant asked and the todos it kept, the title history and every title check. Null when
 * the conversation does not exist or lies outside the operator's `sites`.
 *
 * A private conversation shows its metadata only: message contents, questions and choices,
 * todo texts and titles are withheld ('' or null), so no word of it reaches the console.
 */
export async function loadTranscript(
  db: DbLike,
  q: { operatorId: string; conversationId: string; sites: SiteScope },
): Promise<Transcript | null> {
  const head = await loadTranscriptHead(db, q);
  if (!head) return null;
  const hide = head.private;
  const where = { conversationId: q.conversationId };
  const [messages, runs, inputRequests, todos, titleChecks, history, notes] = await Promise.all([
    db.message.findMany({
      where,
      orderBy: { seq: 'desc' },
      take: TRANSCRIPT_MESSAGES_MAX,
      select: {
        id: true,
        role: true,
        content: true,
        provenance: true,
        provenanceLabel: true,
        state: true,
        error: true,
        cutShort: true,
        createdAt: true,
        runId: true,
        attachments: messageAttachmentsSelect,
      },
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
        finishReason: true,
        endedAt: true,
        error: true,
        retrieved: true,
        messages: { orderBy: { seq: 'asc' }, select: { id: true, role: true, sources: true } },
      },
    }),
    db.inputRequest.findMany({
      where,
      orderBy: { createdAt: 'asc' },
      select: { id: true, question: true, choices: true, status: true, createdAt: true },
    }),
    db.todo.findMany({
      where,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, text: true, status: true, createdAt: true, completedAt: true },
    }),
    db.titleCheck.findMany({
      where,
      orderBy: { createdAt: 'asc' },
      select: {
        id: true,
        outcome: true,
        model: true,
        promptTokens: true,
        completionTokens: true,
        costUsd: true,
        latencyMs: true,
        errorCode: true,
        createdAt: true,
      },
    }),
    titleHistory(db, { id: head.id, visitorId: head.visitor.id, title: head.title, titleSource: head.titleSource }),
    notesOf(db, q.conversationId),
  ]);
  return {
    conversation: head,
    heldBy: head.heldBy,
    waitingSince: head.waitingSince,
    private: head.private,
    messages: messages.reverse().map((m) => ({
      ...m,
      attachments: m.attachments.map((a) => toAttachmentView(a, { withheld: hide })),
      content: hide ? '' : m.content,
      redacted: hide,
      provenance: asProvenance(m.provenance),
      createdAt: m.createdAt.toISOString(),
    })),
    runs: runs.map(({ messages: written, retrieved, ...r }) => ({
      ...r,
      costUsd: num(r.costUsd),
      startedAt: r.startedAt.toISOString(),
      firstTokenAt: iso(r.firstTokenAt),
      finishReason: r.finishReason,
      endedAt: iso(r.endedAt),
      claimedMessageIds: written.filter((m) => m.role === 'user').map((m) => m.id),
      knowledge: hide ? [] : runKnowledge(retrieved, written),
    })),
    inputRequests: inputRequests.map((r) => ({
      ...r,
      question: hide ? '' : r.question,
      choices: hide ? [] : r.choices,
      createdAt: r.createdAt.toISOString(),
    })),
    todos: todos.map((t) => ({ ...t, text: hide ? '' : t.text, createdAt: t.createdAt.toISOString(), completedAt: iso(t.completedAt) })),
    titleHistory: hide ? history.map((h) => ({ ...h, title: null })) : history,
    titleChecks: titleChecks.map((c) => ({ ...c, costUsd: num(c.costUsd), createdAt: c.createdAt.toISOString() })),
    notes,
  };
}

/** The transcript's head alone (what `takeOver` and `handBack` answer), or null when not found or outside `sites`. */
export async function loadTranscriptHead(
  db: DbLike,
  q: { operatorId: string; conversationId: string; sites: SiteScope },
): Promise<TranscriptHead | null> {
  const [row] = await itemRowsById(db, { operatorId: q.operatorId, ids: [q.conversationId], sites: q.sites });
  return row ? { ...toConversationItem(row), visitorTimeZone: row.visitorTimeZone } : null;
}
