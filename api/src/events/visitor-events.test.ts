import { afterAll, beforeAll, expect, test } from 'vitest';
import { replayReplies } from '../../../test/support/conversation-text.ts';
import { TestHeed } from '../../../test/support/harness.ts';
import { claimBatch } from '../chat/schedule/claim-batch.ts';
import { ReplyRelay } from '../chat/run/reply-relay.ts';
import type { VisitorEvent } from './event-types.ts';
import { visitorEvents, type StreamItem } from './visitor-events.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
});
afterAll(() => heed?.stop());

test('many streams on one process each get exactly their own run’s text, in order, when deltas come in bursts (queued deltas merge)', async () => {
  const { services } = heed;
  const visitors = await Promise.all(Array.from({ length: 12 }, () => heed.visitor()));
  const runs = await Promise.all(
    visitors.map(async (v) => {
      const conversationId = await v.conversation();
      const log = v.subscribe((await v.api.conversation.list.query()).cursor);
      await v.send(conversationId, 'hello');
      const batch = await claimBatch(services, { conversationId, workerId: 'test', leaseMs: 60_000 });
      await log.waitFor((e) => e.type === 'run.started');
      return { log, relay: new ReplyRelay(services.redis, services.keys, batch!), runId: batch!.runId };
    }),
  );
  // every run's deltas at once, not awaited one by one: the streams' inboxes fill faster than they drain
  const texts = runs.map((_, i) => Array.from({ length: 40 }, (_, n) => `v${i}-${n} `));
  await Promise.all(runs.flatMap((r, i) => texts[i]!.map((t) => r.relay.delta(t))));
  for (const [i, r] of runs.entries()) {
    const whole = texts[i]!.join('');
    await heed.until(`stream ${i} has its text`, () => replayReplies(r.log.events).get(r.runId) === whole);
    // its own run only, and every delta starts where the text so far ended (none repeated or skipped);
    // a stream that fell behind may be handed a snapshot of the text so far instead of its deltas
    const replyEvents = r.log.events.filter((e) => e.type === 'reply.delta' || e.type === 'reply.snapshot');
    expect(new Set(replyEvents.map((e) => e.runId))).toEqual(new Set([r.runId]));
    let at = 0;
    for (const d of replyEvents) {
      if (d.type === 'reply.snapshot') {
        expect(whole.startsWith(d.text)).toBe(true);
        at = d.text.length;
      } else if (d.type === 'reply.delta') {
        expect(d.offset).toBe(at);
        at += d.text.length;
      }
    }
    expect(at).toBe(whole.length);
    r.log.close();
  }
});

test('as an async generator (tRPC’s procedure, in-process callers) a stream yields the log in id order, then the live text, and ends when its consumer stops', async () => {
  const { services } = heed;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'hello');
  const batch = await claimBatch(services, { conversationId, workerId: 'test', leaseMs: 60_000 });
  const relay = new ReplyRelay(services.redis, services.keys, batch!);
  const texts = Array.from({ length: 30 }, (_, n) => `t${n} `);
  const whole = texts.join('');
  const seen: StreamItem[] = [];
  const textOf = () => replayReplies(seen.map((i) => i.event as VisitorEvent)).get(batch!.runId);
  const consumer = (async () => {
    for await (const item of visitorEvents(services, visitor.visitorId, '0', new AbortController().signal)) {
      seen.push(item);
      // a slow consumer: the stream hands nothing over meanwhile, and a run's queued deltas merge
      await new Promise((r) => setTimeout(r, 5));
      if (textOf() === whole) break;
    }
  })();
  await heed.until('the log is delivered', () => seen.some((i) => i.event.type === 'run.started'));
  await Promise.all(texts.map((t) => relay.delta(t)));
  await consumer;

  const ids = seen.flatMap((i) => (i.id === null ? [] : [BigInt(i.id)]));
  expect(ids.length).toBeGreaterThanOrEqual(3);
  expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  const types = seen.map((i) => i.event.type);
  expect(types.indexOf('message.created')).toBeLessThan(types.indexOf('run.started'));
  expect(textOf()).toBe(whole);
});
