import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());

test('a sent message is answered with a streamed reply that the visitor sees as unread', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ text: 'Hello there, how can I help?' });
  await visitor.send(conversationId, 'Hi!');
  const done = await events.waitFor((e) => e.type === 'reply.completed');
  expect(done.type === 'reply.completed' && done.message.content).toBe('Hello there, how can I help?');
  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({
    id: conversationId,
    title: 'Hi!',
    excerpt: 'Hello there, how can I help?',
    unread: true,
    attention: 'unviewed',
    live: false,
  });
  events.close();
});
