import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { fallbackTitle } from '../../api/src/titles/fallback-title.ts';
import { startTitleTimer } from '../../api/src/titles/title-timer.ts';
import { TestHeed } from '../support/harness.ts';
import {
  isTitleRequest,
  replyRequests,
  sendAndAwaitReply,
  titleAnswer,
  titleAwareResponder,
  titleChecks,
  titleData,
  titleRequests,
  titleRow,
  resetTitleState,
} from '../support/titles.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start();
});
afterAll(() => heed?.stop());
beforeEach(() => resetTitleState(heed));

test('the first message is the title at once: trimmed, source first_message, state pending, before any reply', async () => {
  let release!: () => void;
  const replyGate = new Promise<void>((resolve) => (release = resolve));
  heed.model.setResponder(async () => (await replyGate, { text: 'Shipping is 20 dollars.' }));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const first = '  How much does   shipping to Canada cost for a parcel of about five kilos, roughly?  ';
  await visitor.send(conversationId, first);
  const { conversations } = await visitor.api.conversation.list.query();
  const title = fallbackTitle(first);
  expect(title).toBe('How much does shipping to Canada cost for a parcel of about…');
  expect(conversations.find((c) => c.id === conversationId)).toMatchObject({ title, titleSource: 'first_message' });
  expect(await titleRow(heed, conversationId)).toMatchObject({ titleState: 'pending', titleRequestedAt: null });
  expect(await heed.services.db.message.count({ where: { conversationId, role: 'assistant' } })).toBe(0);
  expect(titleRequests(heed)).toHaveLength(0);
  release();
  await heed.until('the reply', () => heed.services.db.message.findFirst({ where: { conversationId, role: 'assistant' } }));
});

test('the first reply requests a title; one pass makes one model call after the reply and stores a generated title live, updatedAt untouched', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Shipping to Canada')));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await sendAndAwaitReply(heed, visitor, conversationId, 'hi, how much is shipping to canada?');

  // the reply path made no title call; it left a durable request
  expect(heed.model.requests).toHaveLength(1);
  const requested = await titleRow(heed, conversationId);
  expect(requested).toMatchObject({ title: 'hi, how much is shipping to canada?', titleSource: 'first_message', titleState: 'pending' });
  expect(requested.titleRequestedAt).not.toBeNull();

  const result = await heed.titlePass();
  expect(result).toMatchObject({ claimed: 1, outcomes: { changed: 1, kept: 0, failed: 0, rejected: 0, skipped: 0 } });
  expect(titleRequests(heed)).toHaveLength(1);

  const after = await titleRow(heed, conversationId);
  expect(after).toMatchObject({
    title: 'Shipping to Canada',
    titleSource: 'generated',
    titleState: 'generated',
    titleRequestedAt: null,
    titleLeaseUntil: null,
    titleAttempts: 0,
  });
  expect(after.updatedAt.getTime()).toBe(requested.updatedAt.getTime());
  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations.find((c) => c.id === conversationId)).toMatchObject({
    title: 'Shipping to Canada',
    titleSource: 'generated',
    updatedAt: requested.updatedAt.toISOString(),
  });

  // the title call came after the reply had completed: on the model's clock and in the database
  const [reply] = replyRequests(heed);
  const [title] = titleRequests(heed);
  expect(title!.receivedAt).toBeGreaterThanOrEqual(reply!.finishedAt!);
  const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId } });
  const [check] = await titleChecks(heed, conversationId);
  expect(check!.createdAt.getTime()).toBeGreaterThanOrEqual(run.endedAt!.getTime());
  expect(check).toMatchObject({ outcome: 'changed', model: 'test-model', errorCode: null });
  expect(check!.promptTokens).toBeGreaterThan(0);
  expect(check!.completionTokens).toBeGreaterThan(0);
  expect(Number(check!.costUsd)).toBeGreaterThan(0);
  expect(check!.latencyMs).toBeGreaterThanOrEqual(0);

  // the sidebar heard of it live
  const update = await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.title === 'Shipping to Canada');
  expect(update.type === 'conversation.updated' && update.conversation.updatedAt).toBe(requested.updatedAt.toISOString());
  events.close();

  // the request was answered: another pass calls nothing
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });
  expect(titleRequests(heed)).toHaveLength(1);
});

test('the subject stays: the title is kept (audited kept); the subject clearly changes: a new title', async () => {
  const answers = [titleAnswer('Shipping to Canada'), titleAnswer('Shipping to Canada', false), titleAnswer('Gift card balance', true)];
  heed.model.setResponder(titleAwareResponder(() => answers.shift()!));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'How much is shipping to Canada?');
  await heed.titlePass();
  const generated = await titleRow(heed, conversationId);
  expect(generated.title).toBe('Shipping to Canada');

  await sendAndAwaitReply(heed, visitor, conversationId, 'And how long does it take to get there?');
  const beforeKept = await titleRow(heed, conversationId);
  const eventCount = () => heed.services.db.event.count({ where: { conversationId, type: 'conversation.updated' } });
  const eventsBeforeKept = await eventCount();
  expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { kept: 1 } });
  // a kept title is no news
  expect(await eventCount()).toBe(eventsBeforeKept);
  const kept = titleRequests(heed)[1]!;
  // the model is shown the current title and the latest words, and told to keep the title unless the subject moved
  expect(titleData(kept)).toEqual({
    current_title: 'Shipping to Canada',
    first_messages: ['How much is shipping to Canada?'],
    latest_messages: ['And how long does it take to get there?'],
  });
  expect(JSON.stringify(kept.body.messages)).toContain(
    'Keep the current title unless the latest messages clearly moved to another subject',
  );
  expect(await titleRow(heed, conversationId)).toMatchObject({
    title: 'Shipping to Canada',
    titleSource: 'generated',
    titleState: 'generated',
    updatedAt: beforeKept.updatedAt,
  });
  expect((await titleChecks(heed, conversationId)).map((c) => c.outcome)).toEqual(['changed', 'kept']);

  await sendAndAwaitReply(heed, visitor, conversationId, 'Different question: how do I check my gift card balance?');
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { changed: 1 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    title: 'Gift card balance',
    titleSource: 'generated',
    titleState: 'generated',
  });
  expect((await titleChecks(heed, conversationId)).map((c) => c.outcome)).toEqual(['changed', 'kept', 'changed']);
  // the new one is news, live
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.title === 'Gift card balance');
  events.close();
});

test('a title given at creation is fixed: no fallback replaces it, no reply requests a title', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Should never be used')));
  const visitor = await heed.visitor();
  const created = await visitor.api.conversation.create.mutate({ title: '  Order   #4512  ' });
  expect(created).toMatchObject({ title: 'Order #4512', titleSource: 'fixed' });
  await sendAndAwaitReply(heed, visitor, created.id, 'Where is it?');
  expect(await titleRow(heed, created.id)).toMatchObject({ title: 'Order #4512', titleSource: 'fixed', titleRequestedAt: null });
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });
  expect(heed.model.requests.some(isTitleRequest)).toBe(false);
});

test('a failed reply requests no title', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Never'), { error: { status: 400, message: 'bad request' } }));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'This reply will fail');
  expect(await titleRow(heed, conversationId)).toMatchObject({ titleState: 'pending', titleRequestedAt: null });
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });
});

test('updatedAt is identical before and after title writes, so titling or renaming never reorders the sidebar', async () => {
  heed.model.setResponder(titleAwareResponder((req) => titleAnswer(`${titleData(req).first_messages[0]} (titled)`)));
  const visitor = await heed.visitor();
  const older = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, older, 'Older conversation');
  const newer = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, newer, 'Newer conversation');
  const order = async () => (await visitor.api.conversation.list.query()).conversations.map((c) => [c.id, c.updatedAt]);
  const before = await order();
  expect(before.map(([id]) => id)).toEqual([newer, older]);

  expect(await heed.titlePass()).toMatchObject({ outcomes: { changed: 2 } });
  expect(await titleRow(heed, older)).toMatchObject({ title: 'Older conversation (titled)' });
  expect(await order()).toEqual(before);

  await visitor.api.conversation.rename.mutate({ conversationId: older, title: 'Renamed' });
  expect(await order()).toEqual(before);
});

test('the in-process timer answers requests in the background, and stops cleanly', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Titled by the timer')));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const timer = startTitleTimer(heed.services, { intervalMs: 20 });
  try {
    await sendAndAwaitReply(heed, visitor, conversationId, 'timer topic');
    await heed.until('the timer titled it', async () => (await titleRow(heed, conversationId)).title === 'Titled by the timer');
  } finally {
    await timer.stop();
  }
  expect(titleRequests(heed)).toHaveLength(1);
  expect(heed.logs.map((line) => JSON.parse(line))).toContainEqual(
    expect.objectContaining({ msg: 'title pass', titles: { recovered: 0, changed: 1, kept: 0, failed: 0, rejected: 0, skipped: 0 } }),
  );
});
