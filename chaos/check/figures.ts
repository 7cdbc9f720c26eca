import type { FaultKind } from '../faults/controller.ts';
import { chatRequests, indexFacts } from './invariants.ts';
import type { Facts } from './facts.ts';

/** The numbers a chaos run prints beside its verdicts. */
export interface Figures {
  messages: { sent: number; acknowledged: number; stored: number; conversations: number };
  runs: Record<string, number> & { total: number };
  /** claimed messages per answering run */
  batch: { mean: number; max: number };
  model: { requests: number; aborted: number; wastedOnAnsweredBatches: number };
  /** from the first send attempt to the commit of the reply that answered it */
  answerLatencyMs: { p50: number; p99: number; max: number };
  streams: {
    clients: number;
    reconnected: number;
    connections: number;
    durableEvents: number;
    liveEvents: number;
    liveAfterRunEnded: number;
  };
}

export function computeFigures(f: Facts): Figures {
  const ix = indexFacts(f);
  const runs: Record<string, number> & { total: number } = { total: f.runs.length };
  for (const r of f.runs) runs[r.status] = (runs[r.status] ?? 0) + 1;
  const batchSizes = [...ix.started.entries()]
    .filter(([id]) => ['completed', 'awaiting_input'].includes(ix.runById.get(id)?.status ?? ''))
    .map(([, e]) => e.claimedMessageIds.length);
  const latencies: number[] = [];
  for (const s of f.sent) {
    const row = ix.userByClientId.get(s.clientMessageId);
    const answer = row ? (ix.answeredBy.get(row.id) ?? [])[0] : undefined;
    if (answer?.endedAt) latencies.push(answer.endedAt - s.sentAt);
  }
  latencies.sort((a, b) => a - b);
  const chat = chatRequests(f.requests);
  return {
    messages: {
      sent: f.sent.length,
      acknowledged: f.sent.filter((s) => s.ackedAt !== null).length,
      stored: f.messages.filter((m) => m.role === 'user').length,
      conversations: new Set(f.sent.map((s) => s.conversationId)).size,
    },
    runs,
    batch: { mean: round(batchSizes.reduce((a, b) => a + b, 0) / Math.max(1, batchSizes.length), 2), max: Math.max(0, ...batchSizes) },
    model: { requests: chat.length, aborted: chat.filter((q) => q.aborted).length, wastedOnAnsweredBatches: wasted(f, ix) },
    answerLatencyMs: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1) ?? 0 },
    streams: {
      clients: f.streams.length,
      reconnected: f.streams.filter((s) => s.connections > 1).length,
      connections: f.streams.reduce((a, s) => a + s.connections, 0),
      durableEvents: f.streams.reduce((a, s) => a + s.received.filter((r) => r.id !== null).length, 0),
      liveEvents: f.streams.reduce((a, s) => a + s.received.filter((r) => r.id === null).length, 0),
      liveAfterRunEnded: f.streams.reduce((a, s) => a + liveAfterEnd(s.received), 0),
    },
  };
}

/** Requests whose final turn held only messages that were already answered when they were sent (a stale worker's). */
function wasted(f: Facts, ix: ReturnType<typeof indexFacts>): number {
  let n = 0;
  for (const q of chatRequests(f.requests)) {
    const last = q.body.messages?.at(-1);
    const text = typeof last?.content === 'string' ? last.content : '';
    const tags = [...text.matchAll(/\[cm:([A-Za-z0-9_-]+)\]/g)].map((m) => m[1]!);
    const answeredBefore = tags.filter((t) => {
      const row = ix.userByClientId.get(t);
      const answer = row ? ix.answeredBy.get(row.id)?.[0] : undefined;
      return answer?.endedAt != null && answer.endedAt < q.receivedAt;
    });
    if (tags.length > 0 && answeredBefore.length === tags.length) n++;
  }
  return n;
}

/** Deltas a stream delivered after the `reply.completed`/`reply.failed` of their run (the widget's store drops them). */
function liveAfterEnd(received: Facts['streams'][number]['received']): number {
  const ended = new Set<string>();
  let n = 0;
  for (const r of received) {
    if ((r.type === 'reply.completed' || r.type === 'reply.failed') && r.runId) ended.add(r.runId);
    else if (r.id === null && r.runId && ended.has(r.runId) && r.text !== '') n++;
  }
  return n;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!);
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Formats the faults line, e.g. `worker-kill 12, api-kill 5, …`. */
export function formatCounts(counts: Record<FaultKind, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}
