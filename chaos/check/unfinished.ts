import type { EventRow, Facts, MessageRow, StreamRecord } from './facts.ts';

/**
 * Unfinished, not lost: what the run's end caught half-way, as the checker tells it from its facts.
 *
 * The rule follows the pipeline's own (api/src/chat/schedule): a conversation is claimed again by
 * itself while it has a pending user message (due after its debounce) or a run in progress (it
 * completes, or its lease ends and the schedule hands the batch to another worker at once), and
 * that claim takes every unanswered user message of the conversation (state pending, claimed or
 * failed). So a stored, unanswered message in such a conversation is unfinished: a worker will
 * answer it with nobody's help, only later than the run could wait. Every other unanswered message
 * is lost: no row (acknowledged or not), a row marked answered that no completed run claimed, or
 * a claimed/failed row in a conversation nothing will claim again (only a visitor's retry would,
 * and the drain presses it for every failed batch it sees). A pipeline that stops claiming shows
 * here as unfinished too; the bound (unfinished-bound.ts) fails it on a machine that had time.
 */

/** Run states that have not ended yet. */
const IN_PROGRESS = new Set(['claimed', 'streaming']);

/** Message states the next claim of their conversation takes (claim-batch.ts). */
const CLAIMABLE = new Set(['pending', 'claimed', 'failed']);

/** Conversations a worker will claim again by itself: a pending user message, or a run in progress. */
export function conversationsClaimedAgain(f: Pick<Facts, 'messages' | 'runs'>): Set<string> {
  const again = new Set<string>();
  for (const m of f.messages) if (m.role === 'user' && m.state === 'pending') again.add(m.conversationId);
  for (const r of f.runs) if (IN_PROGRESS.has(r.status)) again.add(r.conversationId);
  return again;
}

/** A stored message no completed run answered yet: will a worker still answer it? */
export function stillOnItsWay(row: MessageRow, claimedAgain: ReadonlySet<string>): boolean {
  return row.state !== null && CLAIMABLE.has(row.state) && claimedAgain.has(row.conversationId);
}

/** What the run's end caught half-way. */
export interface Unfinished {
  /** sent messages still on their way */
  messages: number;
  /** of them, claimed by a run in progress; the rest wait for their conversation's next claim */
  claimed: number;
  /** runs still in progress (streaming, or claimed and not yet started) */
  runs: number;
  /** streams that had not yet delivered their visitor's newest committed events, and how many */
  streams: number;
  events: number;
  examples: string[];
}

/** Counts the unfinished messages and streams; `answered` says whether a completed run claimed a message. */
export function countUnfinished(f: Facts, answered: (messageId: string) => boolean): Unfinished {
  const again = conversationsClaimedAgain(f);
  const inProgress = new Set(f.runs.filter((r) => IN_PROGRESS.has(r.status)).map((r) => r.id));
  const byClientId = new Map(f.messages.filter((m) => m.clientMessageId).map((m) => [m.clientMessageId!, m]));
  const u: Unfinished = { messages: 0, claimed: 0, runs: inProgress.size, streams: 0, events: 0, examples: [] };
  for (const s of f.sent) {
    const row = byClientId.get(s.clientMessageId);
    if (!row || answered(row.id) || !stillOnItsWay(row, again)) continue;
    u.messages++;
    const byRun = row.state === 'claimed' && row.runId !== null && inProgress.has(row.runId);
    if (byRun) u.claimed++;
    if (u.examples.length < 5)
      u.examples.push(
        `${s.clientMessageId}: ${row.state}${byRun ? ` by run ${row.runId}, still in progress` : ', waiting for its conversation’s next claim'}`,
      );
  }
  for (const s of f.streams) {
    const { tail } = undelivered(s, f.events);
    if (tail.length === 0) continue;
    u.streams++;
    u.events += tail.length;
  }
  return u;
}

/**
 * A stream's committed events it never delivered, split at the newest one it did: a gap (missed
 * before something later arrived) is a fault; the tail had simply not arrived yet when the run
 * closed the stream, which is unfinished, as a message still being answered is.
 */
export function undelivered(s: StreamRecord, events: readonly EventRow[]): { gaps: EventRow[]; tail: EventRow[] } {
  const start = BigInt(s.startCursor);
  const have = new Set<bigint>();
  let newest = start;
  for (const r of s.received) {
    if (r.id === null) continue;
    const id = BigInt(r.id);
    have.add(id);
    if (id > newest) newest = id;
  }
  const missing = events.filter((e) => e.visitorId === s.visitorId && e.id > start && !have.has(e.id));
  return { gaps: missing.filter((e) => e.id < newest), tail: missing.filter((e) => e.id > newest) };
}
