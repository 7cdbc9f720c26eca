import { isTitleRequest } from '../../api/src/model-server/demo-title.ts';
import type { ChatRequestMessage, RecordedRequest } from '../../api/src/model-server/types.ts';
import { messageTags } from '../load/visitors.ts';
import { replyRequestId, scriptedReply } from '../stack/model.ts';
import type { EventRow, Facts, MessageRow, RunRow } from './facts.ts';
import { conversationsClaimedAgain, countUnfinished, stillOnItsWay, type Unfinished, undelivered } from './unfinished.ts';

/** One invariant's outcome: how many times it was broken, with a few examples to start digging. */
export interface Verdict {
  name: string;
  rule: string;
  count: number;
  examples: string[];
}

/** Runs that answered their batch (a question asked with request_user_input answers it too). */
const ANSWERING = new Set(['completed', 'awaiting_input']);

/**
 * Judges a chaos run from its facts alone (pure, so it is unit-tested with hand-made facts).
 * Commit order is read from event ids, not clocks: a visitor's events commit in id order (see
 * api/src/events/append-events.ts), and each run writes `run.started` when it claims and
 * `reply.completed` / `reply.failed` when it finishes, in the same transactions.
 */
export function judge(f: Facts): Verdict[] {
  const ix = indexFacts(f);
  return [
    lost(f, ix),
    duplicated(f, ix),
    lookedAnswered(f, ix),
    cutShort(f, ix),
    fencedWrites(f, ix),
    streamOrder(f, ix),
    lateText(f, ix),
    sourceText(f, ix),
  ];
}

/** What the run's end caught half-way (reported beside the verdicts, not among them; see unfinished.ts). */
export function findUnfinished(f: Facts): Unfinished {
  const ix = indexFacts(f);
  return countUnfinished(f, (id) => (ix.answeredBy.get(id) ?? []).length > 0);
}

export interface Index {
  userByClientId: Map<string, MessageRow>;
  messageById: Map<string, MessageRow>;
  runById: Map<string, RunRow>;
  /** `run.started` of each run: its commit position and claimed message ids */
  started: Map<string, EventRow>;
  /** `reply.completed` / `reply.failed` of each run */
  ended: Map<string, EventRow>;
  /** answering runs that claimed each message */
  answeredBy: Map<string, RunRow[]>;
  runsByConversation: Map<string, RunRow[]>;
}

export function indexFacts(f: Facts): Index {
  const ix: Index = {
    userByClientId: new Map(),
    messageById: new Map(f.messages.map((m) => [m.id, m])),
    runById: new Map(f.runs.map((r) => [r.id, r])),
    started: new Map(),
    ended: new Map(),
    answeredBy: new Map(),
    runsByConversation: new Map(),
  };
  for (const m of f.messages) if (m.role === 'user' && m.clientMessageId) ix.userByClientId.set(m.clientMessageId, m);
  for (const e of f.events) {
    if (!e.runId) continue;
    if (e.type === 'run.started') ix.started.set(e.runId, e);
    if (e.type === 'reply.completed' || e.type === 'reply.failed') ix.ended.set(e.runId, e);
  }
  for (const [runId, e] of ix.started) {
    const run = ix.runById.get(runId);
    if (!run || !ANSWERING.has(run.status)) continue;
    for (const id of e.claimedMessageIds) ix.answeredBy.set(id, [...(ix.answeredBy.get(id) ?? []), run]);
  }
  for (const r of f.runs) ix.runsByConversation.set(r.conversationId, [...(ix.runsByConversation.get(r.conversationId) ?? []), r]);
  return ix;
}

function verdict(name: string, rule: string, problems: string[]): Verdict {
  return { name, rule, count: problems.length, examples: problems.slice(0, 5) };
}

/**
 * Every message a visitor sent is stored and answered by a run that completed, or still on its way
 * (a worker will answer it by itself: unfinished, counted apart; the rule is in unfinished.ts).
 */
function lost(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  const claimedAgain = conversationsClaimedAgain(f);
  for (const s of f.sent) {
    const row = ix.userByClientId.get(s.clientMessageId);
    if (!row) {
      problems.push(
        `${s.clientMessageId}: never stored${s.ackedAt === null ? ` (never acknowledged: ${s.error ?? 'no answer'})` : ' although acknowledged'}`,
      );
      continue;
    }
    const answered = (ix.answeredBy.get(row.id) ?? []).length > 0;
    if (!answered && !stillOnItsWay(row, claimedAgain))
      problems.push(
        `${s.clientMessageId}: no completed run answered it, and nothing will (state ${row.state}, run ${row.runId}${runStatus(ix, row.runId)})`,
      );
    else if (answered && row.state !== 'answered') problems.push(`${s.clientMessageId}: answered by a run but left ${row.state}`);
  }
  const sentIds = new Set(f.sent.map((s) => s.clientMessageId));
  for (const m of ix.userByClientId.values())
    if (!sentIds.has(m.clientMessageId!)) problems.push(`${m.id}: a user message no visitor sent`);
  return verdict('lost', 'every visitor message answered by a completed run, or on its way', problems);
}

const runStatus = (ix: Index, runId: string | null) => (runId ? ` ${ix.runById.get(runId)?.status ?? 'missing'}` : '');

/** No message answered twice; one stored reply per completed run. */
function duplicated(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  for (const [id, runs] of ix.answeredBy) {
    if (runs.length > 1)
      problems.push(
        `message ${ix.messageById.get(id)?.clientMessageId ?? id} answered by ${runs.length} runs: ${runs.map((r) => `${r.id} (fence ${r.fence})`).join(', ')}`,
      );
  }
  const replies = new Map<string, number>();
  for (const m of f.messages) if (m.role === 'assistant' && m.runId) replies.set(m.runId, (replies.get(m.runId) ?? 0) + 1);
  for (const r of f.runs) {
    const n = replies.get(r.id) ?? 0;
    if ((ANSWERING.has(r.status) && n !== 1) || n > 1) problems.push(`run ${r.id} is ${r.status} with ${n} stored replies`);
    else if (!ANSWERING.has(r.status) && r.status !== 'failed' && n > 0)
      problems.push(`run ${r.id} is ${r.status} yet stored ${n} replies`);
  }
  return verdict('duplicated', 'no message answered by two runs, one reply per run', problems);
}

/**
 * No prompt showed a visitor message as history (a user turn before the final one) before the
 * run answering it had committed; a message in the final turn is not in that prompt's history.
 */
function lookedAnswered(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  for (const q of chatRequests(f.requests)) {
    const messages = q.body.messages ?? [];
    const last = messages.length - 1;
    const finalTags = new Set(messages[last]?.role === 'user' ? messageTags(textOf(messages[last])) : []);
    for (let i = 0; i < last; i++) {
      if (messages[i]?.role !== 'user') continue;
      for (const tag of messageTags(textOf(messages[i]))) {
        const row = ix.userByClientId.get(tag);
        const answer = row ? (ix.answeredBy.get(row.id) ?? [])[0] : undefined;
        if (finalTags.has(tag)) problems.push(`request r${q.id}: ${tag} is both history and the final turn`);
        else if (!answer) problems.push(`request r${q.id}: ${tag} shown as history but never answered`);
        else if (answer.endedAt === null || answer.endedAt > q.receivedAt) {
          problems.push(
            `request r${q.id} at ${q.receivedAt}: ${tag} shown as history; its answer (run ${answer.id}) was stored at ${answer.endedAt}`,
          );
        }
      }
    }
  }
  return verdict('looked-answered', 'no prompt shows a message as answered before it was', problems);
}

/** Every stored reply is the whole scripted reply of a request whose final turn was that run's batch. */
function cutShort(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  const requests = new Map(f.requests.map((q) => [q.id, q]));
  const used = new Map<number, string>();
  for (const m of f.messages) {
    if (m.role !== 'assistant' || m.error !== null) continue;
    const id = replyRequestId(m.content);
    if (id === null || m.content !== scriptedReply(id)) {
      problems.push(
        `reply ${m.id} of run ${m.runId} is not a whole scripted reply: ${JSON.stringify(m.content.slice(0, 80))} (${m.content.length} chars)`,
      );
      continue;
    }
    if (used.has(id)) problems.push(`request r${id}'s reply stored twice (runs ${used.get(id)} and ${m.runId})`);
    used.set(id, m.runId ?? '');
    const q = requests.get(id);
    const claimed = m.runId ? ix.started.get(m.runId)?.claimedMessageIds : undefined;
    if (!q || !claimed) {
      problems.push(`reply ${m.id}: no recorded request r${id} or no claim of run ${m.runId}`);
      continue;
    }
    const messages = q.body.messages ?? [];
    const finalTags = messageTags(textOf(messages[messages.length - 1])).sort();
    const batch = claimed.map((c) => ix.messageById.get(c)?.clientMessageId ?? c).sort();
    if (finalTags.join() !== batch.join())
      problems.push(`run ${m.runId}: stored reply r${id} was written for [${finalTags.join(', ')}], the run claimed [${batch.join(', ')}]`);
  }
  return verdict('cut-short', 'each stored reply is the whole reply to its own batch', problems);
}

/**
 * No write from a stale run: a run that stored a reply (or a failed reply) finished before any
 * newer run of its conversation claimed (commit order), and every reply belongs to a finished run.
 */
function fencedWrites(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  for (const m of f.messages) {
    if (m.role !== 'assistant' || !m.runId) continue;
    const run = ix.runById.get(m.runId);
    const expected = m.error === null ? ANSWERING : new Set(['failed']);
    if (!run || !expected.has(run.status)) problems.push(`reply ${m.id} written by run ${m.runId}, which is ${run?.status ?? 'missing'}`);
  }
  for (const [runId, end] of ix.ended) {
    const run = ix.runById.get(runId);
    if (!run) continue;
    for (const newer of ix.runsByConversation.get(run.conversationId) ?? []) {
      const claimedAt = ix.started.get(newer.id);
      if (newer.fence > run.fence && claimedAt && claimedAt.id < end.id) {
        problems.push(
          `run ${runId} (fence ${run.fence}) wrote its ${end.type} (event ${end.id}) after run ${newer.id} (fence ${newer.fence}) claimed (event ${claimedAt.id})`,
        );
      }
    }
  }
  return verdict('fenced-write', 'no write from a run whose fence a newer run took', problems);
}

/**
 * Every stream delivered each of its visitor's events after its start cursor exactly once, in
 * order; events after the newest it delivered had not arrived yet when it was closed (unfinished).
 */
function streamOrder(f: Facts, _ix: Index): Verdict {
  const problems: string[] = [];
  for (const s of f.streams) {
    const got = s.received.filter((r) => r.id !== null).map((r) => BigInt(r.id!));
    for (let i = 1; i < got.length; i++) {
      if (got[i]! <= got[i - 1]!)
        problems.push(
          `visitor ${s.visitorId}: event ${got[i]} after ${got[i - 1]} (connection ${s.received.filter((r) => r.id !== null)[i]!.connection})`,
        );
    }
    const { gaps } = undelivered(s, f.events);
    if (gaps.length > 0)
      problems.push(
        `visitor ${s.visitorId} (${s.connections} connections): ${gaps.length} events skipped, first ${gaps[0]!.id} (${gaps[0]!.type})`,
      );
  }
  return verdict('sse-order', 'each stream sees every event once, in order, across reconnects', problems);
}

/** No stream delivered reply text of a run after it had delivered the claim of a newer run of that conversation. */
function lateText(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  for (const s of f.streams) {
    const newest = new Map<string, RunRow>();
    for (const r of s.received) {
      const run = r.runId ? ix.runById.get(r.runId) : undefined;
      if (!run) continue;
      const latest = newest.get(r.conversationId);
      if (r.type === 'run.started' && (!latest || run.fence > latest.fence)) newest.set(r.conversationId, run);
      else if ((r.type === 'reply.delta' || r.type === 'reply.snapshot') && r.text !== '' && latest && run.fence < latest.fence) {
        // was it sent late at the source (see stale-publish), or sent in time and delivered after the claim?
        const lateAtSource = f.tapped.some((t) => t.runId === run.id && t.at > latest.startedAt);
        problems.push(
          `visitor ${s.visitorId}: ${r.type} of run ${r.runId} (fence ${run.fence}) on connection ${r.connection}, received ${r.at - latest.startedAt} ms after run ${latest.id} (fence ${latest.fence}) claimed; ${lateAtSource ? 'published late' : 'published before that claim'}${lastFaultBefore(f, r.at)}`,
        );
      }
    }
  }
  return verdict('late-text', 'no client receives reply text of a run after a newer run claimed', problems);
}

/**
 * At the source: no worker published reply text of a run after a newer run of that conversation
 * claimed. Judged by when Redis passed it on (the tap's clock): a delta checked in time but held
 * back (e.g. in a Redis client's offline queue) and sent late counts too. Legitimate text ends
 * at least a tenth of the lease before a newer claim can happen, so the tap's own lag would
 * have to exceed that to misjudge.
 */
function sourceText(f: Facts, ix: Index): Verdict {
  const problems: string[] = [];
  for (const t of f.tapped) {
    const run = ix.runById.get(t.runId);
    if (!run) continue;
    const successor = (ix.runsByConversation.get(run.conversationId) ?? [])
      .filter((r) => r.fence > run.fence)
      .sort((a, b) => a.fence - b.fence)[0];
    if (successor && t.at > successor.startedAt) {
      const relayed = t.publishedAt === null ? '' : `, relayed at ${t.publishedAt - successor.startedAt} ms`;
      const fault = lastFaultBefore(f, t.at);
      problems.push(
        `run ${t.runId} (fence ${run.fence}, ${run.status}, worker ${run.workerId}): ${t.type} heard ${t.at - successor.startedAt} ms after run ${successor.id} claimed${relayed}${fault}`,
      );
    }
  }
  return verdict('stale-publish', 'no worker publishes reply text once a newer run claimed', problems);
}

function lastFaultBefore(f: Facts, at: number): string {
  const fault = (f.faults ?? []).filter((x) => x.at <= at).at(-1);
  return fault ? ` (last fault: ${fault.kind} ${fault.target} ${fault.detail}, ${at - fault.at} ms before)` : '';
}

/** The model requests of replies (title requests are not about batches). */
export function chatRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((q) => !isTitleRequest(q.body));
}

function textOf(m: ChatRequestMessage | undefined): string {
  if (!m || m.content == null) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');
}
