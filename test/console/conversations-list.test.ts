import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isInputNeeded, isUnread } from '../../api/src/shared/attention.ts';
import { SEARCH_WINDOW } from '../../api/src/console/conversations/search-page.ts';
import type { ConversationItem } from '../../api/src/console/conversations/item.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';

let heed: TestHeed;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1' } });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
});
afterAll(() => heed?.stop());

type Filter = 'all' | 'live' | 'input_needed' | 'failed' | 'unread';
const ids = async (op: TestOperator, filter: Filter, extra: { search?: string; siteId?: string } = {}) =>
  (await op.api.console.conversations.list.query({ filter, ...extra, limit: 100 })).items.map((i) => i.id);

/** A visitor's conversation answered by the model, as a visitor makes one. */
async function answered(text: string, reply = 'Sure, here you go.') {
  const visitor = await heed.visitor();
  const id = await visitor.conversation();
  heed.model.script({ text: reply });
  await visitor.send(id, text);
  await heed.until(
    'the reply',
    async () => (await heed.services.db.run.findFirst({ where: { conversationId: id, status: 'completed' } })) !== null,
  );
  return { visitor, id };
}

test('the list filters live / input needed / failed / unread-for-me, and every kept item shows the state its filter names', async () => {
  const plain = await answered('Do you ship to Norway?');

  const failing = await heed.visitor();
  const failed = await failing.conversation();
  heed.model.script({ error: { status: 500 } });
  await failing.send(failed, 'Is my order lost?');
  await heed.until(
    'the failure',
    async () => (await heed.services.db.run.findFirst({ where: { conversationId: failed, status: 'failed' } })) !== null,
  );

  const asking = await heed.visitor();
  const question = await asking.conversation();
  heed.model.script({ toolCalls: [{ name: 'request_user_input', arguments: { question: 'Which colour?', choices: ['Red', 'Blue'] } }] });
  await asking.send(question, 'I want the sofa');
  await heed.until('the question', async () => (await heed.services.db.inputRequest.count({ where: { conversationId: question } })) === 1);

  const waiting = await heed.visitor();
  const live = await waiting.conversation();
  heed.model.script({ text: 'Slow answer.', delayMs: 4000 });
  await waiting.send(live, 'Hello, anyone?');

  const all = await owner.api.console.conversations.list.query({});
  const byId = new Map(all.items.map((i) => [i.id, i]));
  expect(byId.get(plain.id)).toMatchObject({
    attention: 'unviewed',
    failed: false,
    siteName: 'Test site',
    messageCount: 2,
    excerpt: 'Sure, here you go.',
  });
  // the visitor's words count; the failed reply's placeholder does not
  expect(byId.get(failed)).toMatchObject({ attention: 'unviewed', failed: true, messageCount: 1 });
  expect(byId.get(question)).toMatchObject({ attention: 'input_needed', failed: false, excerpt: 'Which colour?' });
  expect(byId.get(live)).toMatchObject({
    attention: 'live',
    messageCount: 1,
    visitor: { id: waiting.visitorId, externalId: null, name: null },
  });

  expect(await ids(owner, 'live')).toEqual([live]);
  expect(await ids(owner, 'failed')).toEqual([failed]);
  expect(await ids(owner, 'input_needed')).toEqual([question]);
  expect(new Set(await ids(owner, 'unread'))).toEqual(new Set([plain.id, failed, question]));
  // the filters keep exactly the items whose state says so, by the one predicate module
  const check = (item: ConversationItem, filter: Filter) => {
    const marker = { lastAssistantAt: item.lastAssistantAt, lastReadAt: null };
    if (filter === 'live') return item.attention === 'live';
    if (filter === 'input_needed') return item.attention === 'input_needed';
    if (filter === 'failed') return item.failed;
    if (filter === 'unread') return isUnread(marker);
    return true;
  };
  for (const filter of ['live', 'input_needed', 'failed', 'unread'] as const) {
    const kept = new Set(await ids(owner, filter));
    for (const item of all.items) expect([filter, item.id, kept.has(item.id)]).toEqual([filter, item.id, check(item, filter)]);
  }
  expect(isInputNeeded({ inputRequest: { createdAt: byId.get(question)!.lastAssistantAt }, lastReadAt: null })).toBe(true);

  // the transcript says why: the failed run's error, the question asked
  const failedRun = await owner.api.console.conversations.transcript.query({ conversationId: failed });
  expect(failedRun.runs).toEqual([
    expect.objectContaining({ status: 'failed', error: 'model_unavailable', attempts: 1, model: 'test-model' }),
  ]);
  expect(failedRun.messages.map((m) => [m.role, m.state, m.error])).toEqual([
    ['user', 'failed', null],
    ['assistant', null, 'model_unavailable'],
  ]);
  const asked = await owner.api.console.conversations.transcript.query({ conversationId: question });
  expect(asked.runs).toEqual([expect.objectContaining({ status: 'awaiting_input', finishReason: 'tool_calls' })]);
  expect(asked.inputRequests).toEqual([expect.objectContaining({ question: 'Which colour?', choices: ['Red', 'Blue'], status: 'open' })]);

  // reading clears unread and input needed for this operator only
  await owner.api.console.conversations.markRead.mutate({ conversationId: question });
  expect(await ids(owner, 'input_needed')).toEqual([]);
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  expect(await ids(agent, 'input_needed')).toEqual([question]);

  await heed.until('the slow reply', async () => (await ids(owner, 'live')).length === 0, 10_000);
});

test('search finds conversations by the words of their messages (all words, the last as a prefix), and by the visitor', async () => {
  const walnut = await answered('My walnut bookshelf arrived scratched', 'Sorry to hear that!');
  const oak = await answered('The oak table is lovely', 'Thank you!');
  expect(await ids(owner, 'all', { search: 'walnut' })).toEqual([walnut.id]);
  expect(await ids(owner, 'all', { search: 'WALNUT book' })).toEqual([walnut.id]);
  expect(await ids(owner, 'all', { search: 'walnut table' })).toEqual([]);
  // the assistant's words count too
  expect(await ids(owner, 'all', { search: 'thank' })).toContain(oak.id);
  expect(await ids(owner, 'all', { search: oak.visitor.visitorId })).toEqual([oak.id]);
  expect(await ids(owner, 'all', { search: walnut.id })).toEqual([walnut.id]);
  expect(await ids(owner, 'all', { search: '\'&|!():* <-> "' })).toEqual([]);
  await heed.services.db.visitor.update({ where: { id: oak.visitor.visitorId }, data: { externalId: 'user-4711', name: 'Ada' } });
  const [found] = (await owner.api.console.conversations.list.query({ search: 'user-4711' })).items;
  expect(found).toMatchObject({ id: oak.id, visitor: { id: oak.visitor.visitorId, externalId: 'user-4711', name: 'Ada' } });
});

test('a search beyond the newest thousand conversations still finds an old rare word, and a common word pages on', async () => {
  const db = heed.services.db;
  const site = await db.site.create({ data: { key: `search-${randomUUID().slice(0, 8)}`, name: 'Many' }, select: { id: true } });
  const visitor = await db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
  const base = Date.parse('2026-03-01T00:00:00Z');
  const made = Array.from({ length: SEARCH_WINDOW + 50 }, (_, i) => ({
    id: randomUUID(),
    siteId: site.id,
    visitorId: visitor.id,
    updatedAt: new Date(base + i * 1000),
  }));
  await db.conversation.createMany({ data: made });
  await db.message.createMany({
    data: made.map((c, i) => ({
      conversationId: c.id,
      visitorId: visitor.id,
      role: 'user' as const,
      content: i === 0 ? 'my zanzibar order' : 'where is my order',
    })),
  });
  // the oldest conversation is far outside the newest window: found through the full-text index
  expect(await ids(owner, 'all', { siteId: site.id, search: 'zanzibar' })).toEqual([made[0]!.id]);
  // a word on every conversation fills pages from the newest ones, in order
  const page = await owner.api.console.conversations.list.query({ siteId: site.id, search: 'order', limit: 3 });
  expect(page.items.map((i) => i.id)).toEqual(
    made
      .slice(-3)
      .reverse()
      .map((c) => c.id),
  );
  const next = await owner.api.console.conversations.list.query({ siteId: site.id, search: 'order', limit: 3, cursor: page.nextCursor! });
  expect(next.items.map((i) => i.id)).toEqual(
    made
      .slice(-6, -3)
      .reverse()
      .map((c) => c.id),
  );
});

test('pages continue exactly after the last row shown while new conversations arrive and shown ones move to the top', async () => {
  const db = heed.services.db;
  const site = await db.site.create({ data: { key: `paging-${randomUUID().slice(0, 8)}`, name: 'Paging' }, select: { id: true } });
  const visitor = await db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
  const base = Date.parse('2026-06-01T00:00:00Z');
  // 45 conversations, some sharing an updatedAt (the id breaks the tie)
  const made = [];
  for (let i = 0; i < 45; i++) {
    made.push({ id: randomUUID(), siteId: site.id, visitorId: visitor.id, updatedAt: new Date(base + Math.floor(i / 3) * 1000) });
  }
  await db.conversation.createMany({ data: made });
  const expected = [...made].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1)).map((c) => c.id);

  const first = await owner.api.console.conversations.list.query({ siteId: site.id, limit: 10 });
  const seen = first.items.map((i) => i.id);
  let cursor = first.nextCursor ?? undefined;
  let n = 0;
  while (cursor) {
    // every page read races new conversations and fresh activity in conversations already shown
    // (both move to the top, where the live stream brings them); the walk neither repeats nor skips
    const [page] = await Promise.all([
      owner.api.console.conversations.list.query({ siteId: site.id, cursor, limit: 10 }),
      db.conversation.createMany({ data: [{ siteId: site.id, visitorId: visitor.id, updatedAt: new Date(base + 100_000 + n++) }] }),
      db.conversation.update({ where: { id: seen[n % seen.length]! }, data: { updatedAt: new Date(base + 200_000 + n) } }),
    ]);
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor ?? undefined;
  }
  expect(seen).toEqual(expected);
});

test('a cursor the server did not make is refused as bad input, and a signed-out client gets nothing', async () => {
  await expect(owner.api.console.conversations.list.query({ cursor: 'not-a-cursor' })).rejects.toMatchObject({
    data: { code: 'BAD_REQUEST', reason: 'bad_cursor' },
  });
  await expect(owner.api.console.conversations.list.query({ limit: 101 })).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  await expect(owner.api.console.conversations.list.query({ search: 'a\u0000b' })).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  const { consoleClient } = await import('../support/console.ts');
  await expect(consoleClient(heed.url, null).console.conversations.list.query({})).rejects.toMatchObject({
    data: { code: 'UNAUTHORIZED', reason: 'console_signed_out' },
  });
});

test("an operator's read marker and the visitor's are independent, in both directions, and each operator has their own", async () => {
  const { visitor, id } = await answered('Where is my parcel?');
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  const attentionFor = async (op: TestOperator) => (await op.api.console.conversations.list.query({ search: id })).items[0]!.attention;
  const visitorUnread = async () => (await visitor.api.conversation.list.query()).conversations.find((c) => c.id === id)!.unread;

  const read = await owner.api.console.conversations.markRead.mutate({ conversationId: id });
  expect(read.attention).toBe('default');
  expect(await attentionFor(owner)).toBe('default');
  expect(await attentionFor(agent)).toBe('unviewed');
  expect(await visitorUnread()).toBe(true);
  expect((await heed.services.db.conversation.findUniqueOrThrow({ where: { id } })).lastReadAt).toBeNull();

  const { lastAssistantAt } = await heed.services.db.conversation.findUniqueOrThrow({ where: { id } });
  await visitor.api.conversation.markRead.mutate({ conversationId: id, lastAssistantAt: lastAssistantAt!.toISOString() });
  expect(await visitorUnread()).toBe(false);
  expect(await attentionFor(agent)).toBe('unviewed');

  // only forward: marking up to an older reply moves nothing back
  await agent.api.console.conversations.markRead.mutate({ conversationId: id });
  await agent.api.console.conversations.markRead.mutate({ conversationId: id, lastAssistantAt: '2020-01-01T00:00:00.000Z' });
  expect(await attentionFor(agent)).toBe('default');
  const marker = await heed.services.db.operatorRead.findUniqueOrThrow({
    where: { operatorId_conversationId: { operatorId: agent.id, conversationId: id } },
  });
  // read up to when it was marked: the reply and anything the visitor wrote before
  expect(marker.lastReadAt.getTime()).toBeGreaterThanOrEqual(lastAssistantAt!.getTime());
  await expect(agent.api.console.conversations.markRead.mutate({ conversationId: randomUUID() })).rejects.toMatchObject({
    data: { code: 'NOT_FOUND' },
  });
});
