import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createRedis, isInProcess } from '../../api/src/redis/client.ts';
import { TestHeed } from '../support/harness.ts';
import { replayReplies } from '../support/conversation-text.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { SSE_CATCHUP_MS: '500' } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

const durableIds = async (visitorId: string) =>
  (await heed.services.db.event.findMany({ where: { visitorId }, orderBy: { id: 'asc' }, select: { id: true } })).map((e) =>
    e.id.toString(),
  );

test('a subscription resumed with lastEventId gets every event it missed once, in order', async () => {
  const visitor = await heed.visitor();
  const { cursor } = await visitor.api.conversation.list.query();
  const first = visitor.subscribe(cursor);
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'one');
  await first.waitFor((e) => e.type === 'reply.completed');
  first.close();
  const seen = first.durable().map((e) => e.eventId!);

  // while disconnected: another exchange happens
  await visitor.send(conversationId, 'two');
  await heed.until(
    'second reply',
    async () => (await heed.services.db.message.count({ where: { conversationId, role: 'assistant' } })) === 2,
  );

  const resumed = visitor.subscribe(seen.at(-1)!);
  await resumed.waitFor((e) => e.type === 'reply.completed');
  await heed.until('caught up', async () => resumed.durable().length + seen.length === (await durableIds(visitor.visitorId)).length);
  const all = [...seen, ...resumed.durable().map((e) => e.eventId!)];
  expect(all).toEqual(await durableIds(visitor.visitorId));
  resumed.close();
});

test('when the server drops every connection mid-reply, the client reconnects by itself and ends with the full reply', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const { cursor } = await visitor.api.conversation.list.query();
  const events = visitor.subscribe(cursor);
  // long enough (~6 s) that the client's automatic reconnect lands while it still streams
  const text = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  heed.model.script({ text, chunkSize: 5, chunkDelayMs: 60 });
  await visitor.send(conversationId, 'Tell me a long story');
  await events.waitFor((e) => e.type === 'reply.delta');
  const beforeDrop = events.events.length;
  heed.server.closeAllConnections();

  const done = await events.waitFor((e) => e.type === 'reply.completed', 20_000);
  const runId = done.type === 'reply.completed' ? done.runId : '';
  // resumed mid-reply: a snapshot with the text so far, then live deltas, add up to the whole reply
  const resumed = events.events.slice(beforeDrop);
  expect(resumed.some((e) => e.type === 'reply.snapshot' && e.text.length > 0)).toBe(true);
  expect(replayReplies(events.events.filter((e) => e.type !== 'reply.completed')).get(runId)).toBe(text);
  // durable events: no duplicate, no gap, in order
  const expected = async () => (await durableIds(visitor.visitorId)).filter((id) => BigInt(id) > BigInt(cursor));
  await heed.until('caught up', async () => events.durable().length >= (await expected()).length);
  expect(events.durable().map((e) => e.eventId!)).toEqual(await expected());
  events.close();
});

test('a client that joins mid-reply (a page refresh) gets the text so far, then the live deltas', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const text = Array.from({ length: 30 }, (_, i) => `token${i}`).join(' ');
  heed.model.script({ text, chunkSize: 6, chunkDelayMs: 40 });
  const watcher = visitor.subscribe();
  await visitor.send(conversationId, 'Stream please');
  await watcher.waitFor((e) => e.type === 'reply.delta' && e.offset > 20);

  // the "refreshed page": a new client, new subscription from the list cursor
  const { cursor, conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({ live: true, attention: 'live' });
  const late = visitor.subscribe(cursor);
  const snapshot = await late.waitFor((e) => e.type === 'reply.snapshot');
  expect(snapshot.type === 'reply.snapshot' && snapshot.text.length).toBeGreaterThan(0);
  const done = await late.waitFor((e) => e.type === 'reply.completed');
  expect(replayReplies(late.events).get(done.type === 'reply.completed' ? done.runId : '')).toBe(text);
  watcher.close();
  late.close();
});

test('a reply the model streams with no pause between tokens is relayed whole and in order, its first token alone, the rest merged while a relay call is in flight', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  // the worker's relay calls as they leave it, on the visitor's Redis channel (the API's streams merge deltas of their own)
  const listener = await createRedis(heed.config.REDIS_URL, 'relay-test');
  const relayed: { offset: number; text: string }[] = [];
  await listener.subscribe(heed.services.keys.visitorChannel(visitor.visitorId), (raw) => {
    const message = JSON.parse(raw) as { kind: string; event?: { type: string; offset: number; text: string } };
    if (message.kind === 'live' && message.event?.type === 'reply.delta')
      relayed.push({ offset: message.event.offset, text: message.event.text });
  });
  try {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const text = words.join(' ');
    heed.model.script({ text });
    const watcher = visitor.subscribe();
    await visitor.send(conversationId, 'Everything at once, please');
    const done = await watcher.waitFor((e) => e.type === 'reply.completed');
    expect(replayReplies(watcher.events).get(done.type === 'reply.completed' ? done.runId : '')).toBe(text);
    watcher.close();

    expect(relayed[0]!.text).toBe(words[0]);
    expect(relayed.map((d) => d.text).join('')).toBe(text);
    let offset = 0;
    for (const delta of relayed) {
      expect(delta.offset).toBe(offset);
      offset += delta.text.length;
    }
    // one call a word before: 400 deltas. In the embedded mode a relay call never waits on a
    // network round trip, so nothing is ever in flight when the next word comes: nothing to merge.
    if (!isInProcess(heed.services.redis)) expect(relayed.length).toBeLessThan(words.length / 2);
  } finally {
    await listener.quit();
  }
});

test('events carry the conversation state: live while streaming, then unread with the excerpt', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  // from the list's cursor, as the widget does: the stream connects after a ticket round trip
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  heed.model.script({ text: 'Done.\nSecond line.' });
  await visitor.send(conversationId, 'Go');
  await events.waitFor((e) => e.type === 'reply.completed');
  const updates = await heed.until('final update', () => {
    const u = events.events.filter((e) => e.type === 'conversation.updated');
    return u.length >= 3 ? u : null;
  });
  const states = updates.map((e) => (e.type === 'conversation.updated' ? e.conversation.attention : null));
  expect(states).toContain('live');
  expect(states.at(-1)).toBe('unviewed');
  expect(updates.at(-1)!.type === 'conversation.updated' && updates.at(-1)!.conversation.excerpt).toBe('Done.');
  events.close();
});

test('an event whose Redis wake-up was lost still reaches the subscriber (the stream re-reads the log when quiet)', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const { cursor } = await visitor.api.conversation.list.query();
  const events = visitor.subscribe(cursor);
  await new Promise((r) => setTimeout(r, 300));
  // committed to the log without any wake-up, as when a publish is lost in a Redis outage
  const { id } = await heed.services.db.event.create({
    data: {
      visitorId: visitor.visitorId,
      conversationId,
      type: 'conversation.updated',
      payload: { type: 'conversation.updated', conversationId, conversation: {} },
    },
  });
  const got = await events.waitFor((e) => e.eventId === id.toString(), 10_000);
  expect(got.type).toBe('conversation.updated');
  events.close();
});
