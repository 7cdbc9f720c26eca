import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { finalTurn, promptMessages } from '../support/conversation-text.ts';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import { localTimeFormatter } from '../../api/src/chat/pending-turn.ts';
import { RECALL_HEADING } from '../../api/src/chat/context-sections.ts';

/**
 * Recall: before a run, the visitor's older messages are searched (PostgreSQL full-text search)
 * with the terms of the whole pending batch; the best hits enter the context with their dates.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: '500' } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

const contextOf = (req: RecordedRequest) => promptMessages(req).filter((m, i) => i > 0 && m.role === 'system').map((m) => m.content).join('\n');

/** Sends one message and waits until it is answered. */
async function said(visitor: TestVisitor, conversationId: string, content: string) {
  const message = await visitor.send(conversationId, content);
  await heed.until(`"${content}" answered`, async () => (await heed.services.db.message.findUnique({ where: { id: message.id }, select: { state: true } }))?.state === 'answered');
  return message;
}

test('a batch of three where only the first mentions an old subject recalls the old message; another visitor’s matching message never comes back', async () => {
  const visitor = await heed.visitor('Europe/Oslo');
  const earlier = await visitor.conversation();
  const old = await said(visitor, earlier, 'I ordered the walnut bookshelf in December, order 55812.');
  await said(visitor, earlier, 'Also I like your oak tables.');

  // another visitor of the same site says the same words, and more of them: if the visitor
  // filter were missing, this would be the best hit
  const stranger = await heed.visitor();
  const strangers = await stranger.conversation();
  await said(stranger, strangers, 'Walnut bookshelf walnut bookshelf: mine arrived broken, order 99999, tracking update please');

  const now = await visitor.conversation();
  const before = heed.model.requests.length;
  await visitor.send(now, 'Any update on the walnut bookshelf?');
  await visitor.send(now, 'What are your opening hours on Saturday?');
  await visitor.send(now, 'And do you sell gift cards?');
  await heed.until('the reply to the batch', async () => (await heed.services.db.message.count({ where: { conversationId: now, role: 'assistant' } })) === 1);

  expect(heed.model.requests).toHaveLength(before + 1);
  const request = heed.model.requests.at(-1)!;
  expect(finalTurn(request)).toContain('There are 3 items');
  const context = contextOf(request);
  expect(context).toContain(`## ${RECALL_HEADING}`);
  const stamp = localTimeFormatter('Europe/Oslo')(new Date(old.createdAt));
  expect(context).toContain(`- [${stamp}, another conversation] "I ordered the walnut bookshelf in December, order 55812."`);
  expect(context).not.toContain('oak tables');
  expect(JSON.stringify(request.body.messages)).not.toContain('arrived broken');
  // the batch itself is never recalled: it is the final turn
  expect(context).not.toContain('Any update on the walnut bookshelf?');
});

test('recall looks past the history window of the same conversation but never repeats what the model sees anyway', async () => {
  // a history budget that holds about two messages
  const small = await TestHeed.start({ env: { DEBOUNCE_MS: '20', CONTEXT_TOKEN_BUDGET: '40' } });
  try {
    const visitor = await small.visitor();
    const conversationId = await visitor.conversation();
    const send = async (content: string) => {
      const m = await visitor.send(conversationId, content);
      await small.until(`"${content}" answered`, async () => (await small.services.db.message.findUnique({ where: { id: m.id }, select: { state: true } }))?.state === 'answered');
    };
    await send('My espresso machine leaks water');
    await send('filler one');
    await send('filler two');
    await send('Recent espresso question');
    await send('Is the espresso machine repair free?');
    const request = small.model.requests.at(-1)!;
    const history = promptMessages(request).slice(1).filter((m) => m.role !== 'system').map((m) => m.content);
    expect(history).toContain('Recent espresso question');
    expect(history).not.toContain('My espresso machine leaks water');
    const context = contextOf(request);
    expect(context).toContain('earlier in this conversation] "My espresso machine leaks water"');
    expect(context).not.toContain('Recent espresso question');
  } finally {
    await small.stop();
  }
});
