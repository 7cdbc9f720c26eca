import { randomUUID } from 'node:crypto';
import type { VisitorEvent } from '../api/src/events/event-types.ts';
import { unwrapEvent, type TestHeed, type TestVisitor } from '../test/support/harness.ts';
import { readBareStream, startBareProxy, type BareProxy } from './bare-proxy.ts';
import { assertStampsFollowPacing, readStamps, stampedChunks } from './stamped-chunks.ts';
import { preciseNow, rounded, summarize, type Summary } from './stats.ts';
import { describeSettings, serviceLogNote, settingsOf, type StackSettings } from './stack.ts';
import { formatSection, formatTable } from './table.ts';

export interface TokenRelayResult {
  settings: StackSettings;
  tokensPerStream: number;
  chunkDelayMs: number;
  rounds: number;
  /** model server writes a chunk → the tRPC SSE subscriber receives its `reply.delta` */
  heedMs: Summary;
  /** model server writes a chunk → the fetch client of the bare proxy receives its `data:` line */
  bareMs: Summary;
  /** heed − bare, per statistic */
  differenceMs: { p50: number; p90: number; p99: number; mean: number };
  /** chunks that reached the visitor inside a snapshot instead of a delta (not timed) */
  snapshots: number;
  notes: string[];
}

interface Received {
  at: number;
  event: VisitorEvent;
}

/**
 * Per-token latency of Heed's live relay (model → worker → Redis → subscriber → tRPC SSE → client)
 * next to a bare proxy reading the same model server. Rounds alternate Heed and bare, after one
 * unmeasured warm-up round of each, so drift in machine load hits both alike.
 */
export async function measureTokenRelay(
  heed: TestHeed,
  opts: { tokens?: number; chunkDelayMs?: number; rounds?: number } = {},
): Promise<TokenRelayResult> {
  const tokens = opts.tokens ?? 150;
  const chunkDelayMs = opts.chunkDelayMs ?? 10;
  const rounds = opts.rounds ?? 2;
  let streamTokens = tokens;
  heed.model.setResponder(() => ({ chunks: stampedChunks(streamTokens), chunkDelayMs }));

  const visitor = await heed.visitor();
  const { cursor } = await visitor.api.conversation.list.query();
  const received: Received[] = [];
  const errors: unknown[] = [];
  // Subscribing from a known cursor: events committed before the connection is up still arrive.
  const subscription = visitor.api.events.subscribe.subscribe(
    { lastEventId: cursor },
    { onData: (raw) => received.push({ at: preciseNow(), event: unwrapEvent(raw) }), onError: (err) => errors.push(err) },
  );
  const proxy = await startBareProxy(heed.model.url);
  const heedMs: number[] = [];
  const bareMs: number[] = [];
  let snapshots = 0;
  try {
    for (let round = -1; round < rounds; round++) {
      streamTokens = round < 0 ? 20 : tokens;
      const viaHeed = await heedStream(heed, visitor, received, chunkDelayMs);
      const viaBare = await bareStream(proxy, chunkDelayMs);
      if (errors.length > 0) throw new Error(`subscription failed: ${String(errors[0])}`);
      if (round < 0) continue;
      heedMs.push(...viaHeed.latencies);
      bareMs.push(...viaBare);
      snapshots += viaHeed.snapshots;
    }
  } finally {
    subscription.unsubscribe();
    await proxy.close();
    heed.model.reset();
  }

  const heedSummary = summarize(heedMs);
  const bareSummary = summarize(bareMs);
  return {
    settings: settingsOf(heed),
    tokensPerStream: tokens,
    chunkDelayMs,
    rounds,
    heedMs: rounded(heedSummary, 3),
    bareMs: rounded(bareSummary, 3),
    differenceMs: rounded(
      {
        p50: heedSummary.p50 - bareSummary.p50,
        p90: heedSummary.p90 - bareSummary.p90,
        p99: heedSummary.p99 - bareSummary.p99,
        mean: heedSummary.mean - bareSummary.mean,
      },
      3,
    ),
    snapshots,
    notes: serviceLogNote(heed),
  };
}

/** One reply through Heed: a new conversation, one send, every delta's latency until it completes. */
async function heedStream(heed: TestHeed, visitor: TestVisitor, received: Received[], chunkDelayMs: number) {
  const conversationId = await visitor.conversation();
  const ofThis = () => received.filter((r) => r.event.conversationId === conversationId);
  // Any event of the new conversation proves the live subscription is up before deltas flow.
  await heed.until('the subscription to see the new conversation', () => ofThis().length > 0, 10_000);
  await visitor.send(conversationId, `relay probe ${randomUUID()}`);
  await heed.until('the relayed reply to complete', () => ofThis().some((r) => r.event.type === 'reply.completed'), 15_000);

  const latencies: number[] = [];
  const stamps: number[] = [];
  let snapshots = 0;
  for (const { at, event } of ofThis()) {
    if (event.type === 'reply.snapshot') snapshots += readStamps(event.text).length;
    if (event.type !== 'reply.delta') continue;
    for (const sentAt of readStamps(event.text)) {
      stamps.push(sentAt);
      latencies.push(at - sentAt);
    }
  }
  assertStampsFollowPacing(stamps, chunkDelayMs);
  return { latencies, snapshots };
}

/** One stream through the bare proxy. */
async function bareStream(proxy: BareProxy, chunkDelayMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const stamps: number[] = [];
  await readBareStream(proxy.url, (text, at) => {
    for (const sentAt of readStamps(text)) {
      stamps.push(sentAt);
      latencies.push(at - sentAt);
    }
  });
  assertStampsFollowPacing(stamps, chunkDelayMs);
  return latencies;
}

/** The section as printed. */
export function formatTokenRelay(r: TokenRelayResult): string {
  const row = (label: string, s: Summary) => [label, String(s.n), s.p50, s.p90, s.p99, s.max, s.mean];
  const d = r.differenceMs;
  return formatSection(
    `2. Token relay latency (${r.rounds} × ${r.tokensPerStream} chunks per path, ${r.chunkDelayMs} ms apart)`,
    [
      describeSettings(r.settings),
      'latency = client receipt − model server write, both performance.timeOrigin + now() in this one process',
      `chunks that arrived in a snapshot instead of a delta: ${r.snapshots}`,
      ...r.notes,
    ],
    formatTable(
      ['ms', 'n', 'p50', 'p90', 'p99', 'max', 'mean'],
      [
        row('Heed (tRPC SSE, reply.delta)', r.heedMs),
        row('bare proxy (openai SDK → SSE → fetch)', r.bareMs),
        ['difference (Heed − bare)', '', d.p50, d.p90, d.p99, null, d.mean],
      ],
      2,
    ),
  );
}
