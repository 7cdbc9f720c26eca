import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { finalTurn, promptMessages } from '../support/conversation-text.ts';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import { localTimeFormatter } from '../../api/src/chat/context/pending-turn.ts';
import { RECALL_HEADING } from '../../api/src/chat/context/context-sections.ts';
import { RECALL_COMMON_MIN, RECALL_RECENT_ROWS, recall } from '../../api/src/chat/context/recall.ts';

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

const contextOf = (req: RecordedRequest) =>
  promptMessages(req)
    .filter((m, i) => i > 0 && m.role === 'system')
    .map((m) => m.content)
    .join('\n');

/** Sends one message and waits until it is answered. */
async function said(visitor: TestVisitor, conversationId: string, content: string) {
  const message = await visitor.send(conversationId, content);
  await heed.until(
    `"${content}" answered`,
    async () => (await heed.services.db.message.findUnique({ where: { id: message.id }, select: { state: true } }))?.state === 'answered',
  );
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
  await heed.until(
    'the reply to the batch',
    async () => (await heed.services.db.message.count({ where: { conversationId: now, role: 'assistant' } })) === 1,
  );

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
      await small.until(
        `"${content}" answered`,
        async () => (await small.services.db.message.findUnique({ where: { id: m.id }, select: { state: true } }))?.state === 'answered',
      );
    };
    await send('My espresso machine leaks water');
    await send('filler one');
    await send('filler two');
    await send('Recent espresso question');
    await send('Is the espresso machine repair free?');
    const request = small.model.requests.at(-1)!;
    const history = promptMessages(request)
      .slice(1)
      .filter((m) => m.role !== 'system')
      .map((m) => m.content);
    expect(history).toContain('Recent espresso question');
    expect(history).not.toContain('My espresso machine leaks water');
    const context = contextOf(request);
    expect(context).toContain('earlier in this conversation] "My espresso machine leaks water"');
    expect(context).not.toContain('Recent espresso question');
  } finally {
    await small.stop();
  }
});

test('a private conversation’s words are never recalled in another conversation; its own run still recalls the visitor’s other conversations', async () => {
  const visitor = await heed.visitor('Europe/Oslo');
  const open = await visitor.conversation();
  const order = await said(visitor, open, 'I ordered the walnut bookshelf in December, order 55812.');
  const secret = await visitor.conversation();
  await said(visitor, secret, 'The walnut bookshelf is a surprise for Jonas, do not tell anyone.');
  await visitor.api.conversation.setPrivate.mutate({ conversationId: secret, private: true });
  const orderLine = `- [${localTimeFormatter('Europe/Oslo')(new Date(order.createdAt))}, another conversation] "I ordered the walnut bookshelf in December, order 55812."`;

  // a new conversation: the open one is recalled, the private one is not (it would rank first: it
  // repeats both words of the batch)
  const now = await visitor.conversation();
  await said(visitor, now, 'Any news about the walnut bookshelf?');
  const elsewhere = heed.model.requests.at(-1)!;
  expect(contextOf(elsewhere)).toContain(orderLine);
  expect(JSON.stringify(elsewhere.body.messages)).not.toContain('Jonas');

  // the private conversation's own run may recall the visitor's open conversations
  await said(visitor, secret, 'When will the walnut bookshelf ship?');
  expect(contextOf(heed.model.requests.at(-1)!)).toContain(orderLine);

  // marked private later, an older conversation disappears from recall too; and back when unmarked
  await visitor.api.conversation.setPrivate.mutate({ conversationId: open, private: true });
  await said(visitor, now, 'Walnut bookshelf: still nothing?');
  expect(JSON.stringify(heed.model.requests.at(-1)!.body.messages)).not.toContain('order 55812');
  await visitor.api.conversation.setPrivate.mutate({ conversationId: open, private: false });
  const later = await visitor.conversation();
  await said(visitor, later, 'About my walnut bookshelf again');
  expect(contextOf(heed.model.requests.at(-1)!)).toContain(orderLine);
  expect(JSON.stringify(heed.model.requests.at(-1)!.body.messages)).not.toContain('Jonas');
});

describe('a visitor with a long history: recall reads their newest messages and the older ones only for rare words', () => {
  /** A new conversation of `visitor` holding `contents` as answered visitor messages, oldest first (seeded in SQL). */
  async function seeded(visitor: TestVisitor, contents: readonly string[]) {
    const conversationId = await visitor.conversation();
    await heed.services.db.$executeRaw`
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, state, "createdAt")
      SELECT gen_random_uuid(), ${conversationId}::uuid, ${visitor.visitorId}::uuid, 'user', t.content, 'answered',
             now() - make_interval(secs => ${contents.length + 1} - t.i::int)
      FROM unnest(${contents}::text[]) WITH ORDINALITY AS t(content, i)
      ORDER BY t.i`;
    return conversationId;
  }
  const recent = (n: number) => Array.from({ length: n }, (_, i) => `Question ${i} about delivery times to Oslo`);
  async function recallFor(visitor: TestVisitor, text: string) {
    const { siteId } = await heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitor.visitorId }, select: { siteId: true } });
    const conversationId = await visitor.conversation();
    return recall(heed.services.db, { visitorId: visitor.visitorId, siteId, conversationId, windowStartSeq: 0n }, [text]);
  }

  test('an old message with a rare word is found behind many newer ones, but never from a private conversation', async () => {
    const visitor = await heed.visitor();
    const secret = await seeded(visitor, ['The walnut bookshelf order 55812 is a gift for Jonas']);
    await visitor.api.conversation.setPrivate.mutate({ conversationId: secret, private: true });
    await seeded(visitor, ['My walnut bookshelf order 55812 never came', ...recent(2 * RECALL_RECENT_ROWS)]);
    const hits = await recallFor(visitor, 'Where is my walnut bookshelf delivery?');
    expect(hits.map((h) => h.content)).toEqual([
      'My walnut bookshelf order 55812 never came',
      `Question ${2 * RECALL_RECENT_ROWS - 1} about delivery times to Oslo`,
      `Question ${2 * RECALL_RECENT_ROWS - 2} about delivery times to Oslo`,
    ]);
  });

  test('the old mentions of a word the visitor keeps using are left out: the newest ones stand for them', async () => {
    const short = 'Delivery?';
    const few = await heed.visitor();
    await seeded(few, [short, ...recent(RECALL_COMMON_MIN)]);
    // a short message ranks first (ts_rank normalized by length) while every message is read...
    expect((await recallFor(few, 'delivery'))[0]?.content).toBe(short);
    // ...and is not read at all behind RECALL_RECENT_ROWS newer messages that use the word
    const many = await heed.visitor();
    await seeded(many, [short, ...recent(RECALL_RECENT_ROWS)]);
    const hits = await recallFor(many, 'delivery');
    expect(hits).toHaveLength(3);
    expect(hits.map((h) => h.content)).not.toContain(short);
  });
});
