import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { errorOf } from './helpers.ts';

/**
 * "Did this help?": the visitor's rating of a conversation a person resolved. The procedures
 * that resolve and reopen are the team inbox's; here the status columns are set directly, as
 * those procedures leave them.
 */
let heed: TestHeed;
let ana: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  ana = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana' });
});
afterAll(() => heed?.stop());

/** A conversation Ana took over and answered, with one visitor message before. */
async function answeredByAna(visitor: TestVisitor): Promise<string> {
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, 'My parcel never came');
  await ana.api.console.conversations.takeOver.mutate({ conversationId });
  await ana.api.console.conversations.reply.mutate({
    conversationId,
    text: 'I sent a new one today.',
    clientMessageId: `ana-${conversationId}`,
  });
  return conversationId;
}

const resolve = (conversationId: string, resolvedAt = new Date()) =>
  heed.services.db.conversation.update({ where: { id: conversationId }, data: { status: 'resolved', resolvedAt } });
const stored = (conversationId: string) =>
  heed.services.db.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: { rating: true, ratingComment: true, ratedAt: true, updatedAt: true },
  });

test('the visitor sees the status and rates a resolved conversation a person answered; the view and event say so; they may change it', async () => {
  const visitor = await heed.visitor();
  const conversationId = await answeredByAna(visitor);
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({ status: 'open', rating: null });

  // not before it is resolved
  expect(await errorOf(visitor.api.conversation.rate.mutate({ conversationId, rating: 1 }))).toMatchObject({
    code: 'CONFLICT',
    reason: 'not_resolved',
  });
  await resolve(conversationId);
  const before = await stored(conversationId);
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({ status: 'resolved', rating: null });

  const view = await visitor.api.conversation.rate.mutate({ conversationId, rating: 1 });
  expect(view).toMatchObject({ id: conversationId, status: 'resolved', rating: 1 });
  const updated = await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.rating === 1);
  expect(updated.type === 'conversation.updated' && updated.conversation.id).toBe(conversationId);
  events.close();
  const first = await stored(conversationId);
  expect(first).toMatchObject({ rating: 1, ratingComment: null });
  // a rating is not activity: the sidebar's order stays
  expect(first.updatedAt).toEqual(before.updatedAt);

  // changed within the same resolution: the thumb, then the words; no comment keeps the words
  await visitor.api.conversation.rate.mutate({ conversationId, rating: -1, comment: '  Took three days.  ' });
  expect(await stored(conversationId)).toMatchObject({ rating: -1, ratingComment: 'Took three days.' });
  expect(await visitor.api.conversation.rate.mutate({ conversationId, rating: 1 })).toMatchObject({ rating: 1 });
  expect(await stored(conversationId)).toMatchObject({ rating: 1, ratingComment: 'Took three days.' });
  await visitor.api.conversation.rate.mutate({ conversationId, rating: 1, comment: '' });
  expect(await stored(conversationId)).toMatchObject({ rating: 1, ratingComment: null });
  expect((await visitor.api.conversation.list.query()).conversations.find((c) => c.id === conversationId)).toMatchObject({
    status: 'resolved',
    rating: 1,
  });
});

test('only the visitor’s own conversation: another visitor’s and an unknown id are not found, and nothing is stored', async () => {
  const visitor = await heed.visitor();
  const conversationId = await answeredByAna(visitor);
  await resolve(conversationId);
  const stranger = await heed.visitor();
  expect(await errorOf(stranger.api.conversation.rate.mutate({ conversationId, rating: -1, comment: 'spam' }))).toMatchObject({
    code: 'NOT_FOUND',
  });
  expect(
    await errorOf(stranger.api.conversation.rate.mutate({ conversationId: '00000000-0000-4000-8000-000000000000', rating: 1 })),
  ).toMatchObject({ code: 'NOT_FOUND' });
  expect(await stored(conversationId)).toMatchObject({ rating: null, ratingComment: null, ratedAt: null });
});

test('not an open, snoozed, or assistant-only conversation; a snooze whose time has passed reads open', async () => {
  const visitor = await heed.visitor();
  const conversationId = await answeredByAna(visitor);
  const db = heed.services.db;
  await db.conversation.update({
    where: { id: conversationId },
    data: { status: 'snoozed', snoozedUntil: new Date(Date.now() + 3_600_000) },
  });
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation.status).toBe('snoozed');
  expect(await errorOf(visitor.api.conversation.rate.mutate({ conversationId, rating: 1 }))).toMatchObject({ reason: 'not_resolved' });
  await db.conversation.update({ where: { id: conversationId }, data: { snoozedUntil: new Date(Date.now() - 1000) } });
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation.status).toBe('open');

  // resolved, but no person ever wrote in it: there is no person's help to rate
  const aiOnly = await visitor.conversation();
  await visitor.send(aiOnly, 'Just browsing');
  await resolve(aiOnly);
  expect(await errorOf(visitor.api.conversation.rate.mutate({ conversationId: aiOnly, rating: 1 }))).toMatchObject({
    code: 'CONFLICT',
    reason: 'no_person',
  });
  expect(await stored(aiOnly)).toMatchObject({ rating: null });
});

test('the comment is bounded (1000 characters, counted as characters, no NUL) and the rating is 1 or -1', async () => {
  const visitor = await heed.visitor();
  const conversationId = await answeredByAna(visitor);
  await resolve(conversationId);
  for (const input of [
    { conversationId, rating: 1, comment: 'x'.repeat(1001) },
    { conversationId, rating: 1, comment: 'a\u0000b' },
    { conversationId, rating: 2 },
    { conversationId, rating: 0 },
    { conversationId, rating: 1, extra: true },
  ]) {
    expect(await errorOf(visitor.api.conversation.rate.mutate(input as never)), JSON.stringify(input).slice(0, 80)).toMatchObject({
      code: 'BAD_REQUEST',
    });
  }
  expect(await stored(conversationId)).toMatchObject({ rating: null });
  // 1000 emoji are 2000 UTF-16 units but 1000 characters: the column's measure
  const longest = '👍'.repeat(1000);
  await visitor.api.conversation.rate.mutate({ conversationId, rating: 1, comment: longest });
  expect((await stored(conversationId)).ratingComment).toBe(longest);
});

test('resolved again after the visitor reopened it: the old rating is not this resolution’s, so it reads unrated, and a new one replaces it whole', async () => {
  const visitor = await heed.visitor();
  const conversationId = await answeredByAna(visitor);
  await resolve(conversationId, new Date(Date.now() - 60_000));
  await visitor.api.conversation.rate.mutate({ conversationId, rating: -1, comment: 'Still no parcel' });
  // reopened and resolved anew
  await resolve(conversationId, new Date(Date.now() + 1000));
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({ status: 'resolved', rating: null });
  const again = await visitor.api.conversation.rate.mutate({ conversationId, rating: 1 });
  expect(again).toMatchObject({ rating: 1 });
  expect(await stored(conversationId)).toMatchObject({ rating: 1, ratingComment: null });
});
