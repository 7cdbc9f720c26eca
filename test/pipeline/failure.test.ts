import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { finalTurn, replayReplies } from '../support/conversation-text.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '3', MODEL_TIMEOUT_MS: '1500' } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

test('a model that keeps failing leaves a failed reply with an excerpt, unread and retryable; retry answers it', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ error: { status: 500 } }, { error: { status: 503 } }, { error: { status: 502 } });
  await visitor.send(conversationId, 'Where is my order #1234?');
  const failed = await events.waitFor((e) => e.type === 'reply.failed');
  expect(failed.type === 'reply.failed' && failed.message.error).toBe('model_unavailable');
  expect(heed.model.requests).toHaveLength(3);

  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({ failed: true, unread: true, attention: 'unviewed' });
  expect(conversations[0]!.excerpt).toMatch(/^Reply failed: /);
  const thread = await visitor.api.conversation.get.query({ conversationId });
  expect(thread.messages.map((m) => [m.role, m.state ?? m.error])).toEqual([
    ['user', 'failed'],
    ['assistant', 'model_unavailable'],
  ]);

  heed.model.script({ text: 'Your order ships tomorrow.' });
  expect(await visitor.api.message.retry.mutate({ conversationId })).toEqual({ requeued: 1 });
  await events.waitFor((e) => e.type === 'reply.completed');
  expect(finalTurn(heed.model.requests.at(-1)!)).toBe('Where is my order #1234?');
  // the failed reply is not history the model sees
  expect(JSON.stringify(heed.model.requests.at(-1)!.body.messages)).not.toContain('could not be reached');
  const after = await visitor.api.conversation.list.query();
  expect(after.conversations[0]).toMatchObject({ failed: false, unread: true, excerpt: 'Your order ships tomorrow.' });
  events.close();
});

test('transient errors (a 429, then a stream that breaks off) are retried and the visitor sees one clean reply', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script(
    { error: { status: 429 } },
    { text: 'partial partial partial', chunkSize: 4, error: { status: 500, afterChunks: 3 } },
    { text: 'Recovered answer.' },
  );
  await visitor.send(conversationId, 'Hello?');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  expect(done.type === 'reply.completed' && done.message.content).toBe('Recovered answer.');
  const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId } });
  expect(run).toMatchObject({ status: 'completed', attempts: 3 });
  // the partial text of the broken attempt was withdrawn from the visitor's screen
  expect(replayReplies(events.events).get(run.id)).toBe('Recovered answer.');
  events.close();
});

test('a stream that stalls mid-reply is not stored as a truncated reply: it times out and is retried', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ chunks: ['The first half', ' and then silence'], chunkDelayMs: 2500 }, { text: 'A whole reply.' });
  await visitor.send(conversationId, 'Explain slowly');
  const done = await events.waitFor((e) => e.type === 'reply.completed', 20_000);
  expect(done.type === 'reply.completed' && done.message.content).toBe('A whole reply.');
  events.close();
});

test('one conversation failing does not stop the worker from answering another', async () => {
  const visitor = await heed.visitor();
  const [bad, good] = [await visitor.conversation(), await visitor.conversation()];
  heed.model.setResponder((req) =>
    JSON.stringify(req.body.messages).includes('poison') ? { error: { status: 400, message: 'bad request' } } : { text: 'Fine.' },
  );
  await visitor.send(bad, 'poison');
  await visitor.send(good, 'healthy');
  const db = heed.services.db;
  await heed.until(
    'both settled',
    async () => (await db.message.count({ where: { conversationId: { in: [bad, good] }, role: 'assistant' } })) === 2,
  );
  expect(await db.message.findFirst({ where: { conversationId: bad, role: 'assistant' }, select: { error: true } })).toEqual({
    error: 'model_rejected',
  });
  expect(await db.message.findFirst({ where: { conversationId: good, role: 'assistant' }, select: { content: true } })).toEqual({
    content: 'Fine.',
  });
  // a non-transient rejection is not retried
  expect(heed.model.requests.filter((r) => JSON.stringify(r.body.messages).includes('poison'))).toHaveLength(1);
});

test('a model that never answers times out into a failed reply', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.setResponder(() => ({ hang: true }));
  await visitor.send(conversationId, 'Anyone?');
  const db = heed.services.db;
  const failed = await heed.until(
    'failed reply',
    () => db.message.findFirst({ where: { conversationId, role: 'assistant' }, select: { error: true } }),
    20_000,
  );
  expect(failed.error).toBe('model_timeout');
});
