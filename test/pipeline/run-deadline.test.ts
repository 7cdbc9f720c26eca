import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';

/**
 * A run that never ends (here a model that accepts the request and then says nothing, under an
 * idle timeout far longer than the run may live) must not hold its batch forever: past
 * RUN_MAX_MS it stops renewing, its lease lapses and another run answers, once.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: '20', LEASE_MS: '600', RUN_MAX_MS: '3000', MODEL_TIMEOUT_MS: '60000' } });
});
afterAll(() => heed?.stop());

test('a run stuck past RUN_MAX_MS is given up and the batch is answered once by the next run', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  heed.model.script({ hang: true }, { text: 'Here is your answer.' });
  await visitor.send(conversationId, 'Is anyone there?');

  const completed = await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === conversationId);
  expect(completed).toMatchObject({ type: 'reply.completed' });
  events.close();
  expect(heed.model.requests).toHaveLength(2);
  const replies = await heed.services.db.message.findMany({ where: { conversationId, role: 'assistant' }, select: { content: true } });
  expect(replies).toEqual([{ content: 'Here is your answer.' }]);
  expect(heed.runs.filter((r) => r.conversationId === conversationId).map((r) => r.outcome)).toEqual(['lost', 'completed']);
  expect(heed.logs.some((line) => line.includes('run exceeded RUN_MAX_MS'))).toBe(true);
});
