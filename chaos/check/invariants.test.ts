import { describe, expect, test } from 'vitest';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import { scriptedReply } from '../stack/model.ts';
import type { EventRow, Facts, MessageRow, RunRow } from './facts.ts';
import { findUnfinished, judge } from './invariants.ts';
import { judgeUnfinished } from './unfinished-bound.ts';

const C = 'conv-1';
const V = 'visitor-1';
const user = (id: string, runId: string): MessageRow => ({
  id,
  conversationId: C,
  role: 'user',
  content: `hi [cm:${id}-c]`,
  clientMessageId: `${id}-c`,
  state: 'answered',
  runId,
  error: null,
  createdAt: 0,
});
const reply = (runId: string, requestId: number): MessageRow => ({
  id: `a-${runId}`,
  conversationId: C,
  role: 'assistant',
  content: scriptedReply(requestId),
  clientMessageId: null,
  state: null,
  runId,
  error: null,
  createdAt: 0,
});
const run = (id: string, fence: number, startedAt: number, endedAt: number): RunRow => ({
  id,
  conversationId: C,
  fence,
  status: 'completed',
  workerId: 'w',
  error: null,
  startedAt,
  endedAt,
});
const event = (id: number, type: string, runId: string, claimed: string[] = []): EventRow => ({
  id: BigInt(id),
  visitorId: V,
  conversationId: C,
  type,
  runId,
  claimedMessageIds: claimed,
});
const request = (id: number, receivedAt: number, history: string[], final: string[]): RecordedRequest => ({
  id,
  receivedAt,
  aborted: false,
  headers: {},
  body: {
    messages: [
      { role: 'system', content: 'prompt' },
      ...history.flatMap((h) => [
        { role: 'user', content: `hi [cm:${h}-c]` },
        { role: 'assistant', content: 'ok' },
      ]),
      { role: 'user', content: final.map((m) => `hi [cm:${m}-c]`).join('\n') },
    ],
  },
});

/** Two batches of one conversation answered one after the other, everything as it should be. */
function healthy(): Facts {
  return {
    messages: [user('m1', 'r1'), reply('r1', 1), user('m2', 'r2'), reply('r2', 2)],
    runs: [run('r1', 1, 1000, 2000), run('r2', 2, 3000, 4000)],
    events: [
      event(1, 'run.started', 'r1', ['m1']),
      event(2, 'reply.completed', 'r1'),
      event(3, 'run.started', 'r2', ['m2']),
      event(4, 'reply.completed', 'r2'),
    ],
    requests: [request(1, 1100, [], ['m1']), request(2, 3100, ['m1'], ['m2'])],
    sent: ['m1', 'm2'].map((m) => ({ clientMessageId: `${m}-c`, conversationId: C, content: '', sentAt: 0, ackedAt: 1, messageId: m })),
    streams: [
      {
        visitorId: V,
        startCursor: '0',
        connections: 2,
        received: [
          { id: '1', type: 'run.started', conversationId: C, runId: 'r1', text: '', at: 1000, connection: 1 },
          { id: null, type: 'reply.delta', conversationId: C, runId: 'r1', text: 'Reply', at: 1200, connection: 1 },
          { id: '2', type: 'reply.completed', conversationId: C, runId: 'r1', text: '', at: 2000, connection: 2 },
          { id: '3', type: 'run.started', conversationId: C, runId: 'r2', text: '', at: 3000, connection: 2 },
          { id: '4', type: 'reply.completed', conversationId: C, runId: 'r2', text: '', at: 4000, connection: 2 },
        ],
      },
    ],
    tapped: [{ runId: 'r1', conversationId: C, type: 'reply.delta', at: 1150, publishedAt: 1149 }],
  };
}

const broken = (facts: Facts) =>
  Object.fromEntries(
    judge(facts)
      .filter((v) => v.count > 0)
      .map((v) => [v.name, v.count]),
  );

describe('the chaos checker', () => {
  test('finds nothing wrong with a conversation answered batch after batch', () => {
    expect(broken(healthy())).toEqual({});
  });

  test('counts a message no completed run claimed as lost, and one claimed by two runs as duplicated', () => {
    const lost = healthy();
    lost.events[2] = event(3, 'run.started', 'r2', []);
    expect(broken(lost)).toMatchObject({ lost: 1 });
    const twice = healthy();
    twice.events[2] = event(3, 'run.started', 'r2', ['m1', 'm2']);
    expect(broken(twice)).toMatchObject({ duplicated: 1 });
  });

  test('counts a message still being answered when time ran out as unfinished, not lost', () => {
    const late = healthy();
    // m3 claimed by a run still streaming, m4 sent since and queued behind it; their events not yet delivered
    late.messages.push({ ...user('m3', 'r3'), state: 'claimed' }, { ...user('m4', 'r3'), state: 'pending', runId: null });
    late.runs.push({ ...run('r3', 3, 5000, 0), status: 'streaming', endedAt: null });
    late.events.push(event(5, 'run.started', 'r3', ['m3']), event(6, 'message.created', 'r3'));
    late.sent.push(
      ...['m3', 'm4'].map((m) => ({ clientMessageId: `${m}-c`, conversationId: C, content: '', sentAt: 0, ackedAt: 1, messageId: m })),
    );
    expect(broken(late)).toEqual({});
    expect(findUnfinished(late)).toMatchObject({ messages: 2, claimed: 1, runs: 1, streams: 1, events: 2 });
  });

  test('counts a message acknowledged but gone, or failed with nothing left to claim it, as lost', () => {
    const gone = healthy();
    gone.sent.push({ clientMessageId: 'm3-c', conversationId: C, content: '', sentAt: 0, ackedAt: 1, messageId: 'm3' });
    expect(broken(gone)).toEqual({ lost: 1 });
    expect(findUnfinished(gone).messages).toBe(0);
    const failed = healthy();
    failed.messages.push({ ...user('m3', 'r3'), state: 'failed' });
    failed.runs.push({ ...run('r3', 3, 5000, 6000), status: 'failed' });
    failed.sent.push({ clientMessageId: 'm3-c', conversationId: C, content: '', sentAt: 0, ackedAt: 1, messageId: 'm3' });
    expect(broken(failed)).toMatchObject({ lost: 1 });
    // a pending message in the same conversation: its claim takes the failed one too
    failed.messages.push({ ...user('m4', 'r3'), state: 'pending', runId: null });
    failed.sent.push({ clientMessageId: 'm4-c', conversationId: C, content: '', sentAt: 0, ackedAt: 1, messageId: 'm4' });
    expect(broken(failed).lost).toBeUndefined();
    expect(findUnfinished(failed).messages).toBe(2);
  });

  test('fails unfinished work on a machine that had time for it, or past 1 % anywhere', () => {
    const some = (messages: number) => ({ messages, claimed: messages, runs: 1, streams: 0, events: 0, examples: [] });
    const drain = { budgetS: 60, hadS: 60, tookS: 60, loadAverage: 1.5, cores: 2 };
    expect(judgeUnfinished(some(0), 1000, drain, 1).outcome).toBeNull();
    expect(judgeUnfinished(some(1), 1000, drain, 1).outcome).toBe('violation');
    const busy = { ...drain, loadAverage: 19.8 };
    expect(judgeUnfinished(some(10), 1000, busy, 1).outcome).toBeNull();
    expect(judgeUnfinished(some(11), 1000, busy, 1).outcome).toBe('inconclusive');
    const cutShort = { ...drain, hadS: 0, tookS: 0 };
    expect(judgeUnfinished(some(10), 1000, cutShort, 1).outcome).toBeNull();
  });

  test('flags a run that stored its reply and then a failed reply on top', () => {
    const both = healthy();
    both.runs[1] = { ...both.runs[1]!, status: 'failed' };
    both.messages.push({ ...reply('r2', 2), id: 'failed-r2', content: 'Sorry, the reply failed.', error: 'model_error' });
    expect(broken(both)).toMatchObject({ duplicated: 1, lost: 1 });
  });

  test('flags a prompt that shows a message as history before its answer was stored', () => {
    const early = healthy();
    early.requests[1] = request(2, 1500, ['m1'], ['m2']);
    expect(broken(early)).toEqual({ 'looked-answered': 1 });
  });

  test('flags a stored reply shorter than the scripted one, or written for another batch', () => {
    const cut = healthy();
    cut.messages[1] = { ...reply('r1', 1), content: scriptedReply(1).slice(0, 30) };
    expect(broken(cut)).toEqual({ 'cut-short': 1 });
    const swapped = healthy();
    swapped.messages[1] = reply('r1', 2);
    swapped.messages[3] = reply('r2', 1);
    expect(broken(swapped)).toEqual({ 'cut-short': 2 });
  });

  test('flags a reply committed after a newer run of the conversation claimed', () => {
    const stale = healthy();
    stale.events = [
      event(1, 'run.started', 'r1', ['m1']),
      event(2, 'run.started', 'r2', ['m2']),
      event(3, 'reply.completed', 'r1'),
      event(4, 'reply.completed', 'r2'),
    ];
    expect(broken(stale)).toMatchObject({ 'fenced-write': 1 });
  });

  test('flags a stream that repeats, reorders or misses an event', () => {
    const repeated = healthy();
    repeated.streams[0]!.received.splice(3, 0, { ...repeated.streams[0]!.received[2]! });
    expect(broken(repeated)).toEqual({ 'sse-order': 1 });
    const missing = healthy();
    missing.streams[0]!.received.splice(2, 1);
    expect(broken(missing)).toEqual({ 'sse-order': 1 });
  });

  test('flags reply text of a run delivered after a newer run claimed, at the client and at the source', () => {
    const late = healthy();
    late.streams[0]!.received.splice(4, 0, {
      id: null,
      type: 'reply.delta',
      conversationId: C,
      runId: 'r1',
      text: 'late',
      at: 3500,
      connection: 2,
    });
    late.tapped.push({ runId: 'r1', conversationId: C, type: 'reply.delta', at: 3400, publishedAt: 1900 });
    expect(broken(late)).toEqual({ 'late-text': 1, 'stale-publish': 1 });
  });
});
