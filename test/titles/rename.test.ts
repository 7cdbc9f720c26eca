import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import {
  sendAndAwaitReply,
  titleAnswer,
  titleAwareResponder,
  titleChecks,
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

test('a rename during a slow generation wins: the late model answer changes nothing and is audited skipped', async () => {
  let answer!: () => void;
  const slowModel = new Promise<void>((resolve) => (answer = resolve));
  heed.model.setResponder(titleAwareResponder(async () => (await slowModel, titleAnswer('Generated title'))));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'hello, I need help with an invoice');
  const before = await titleRow(heed, conversationId);

  const pass = heed.titlePass();
  await heed.until('the title call in flight', () => titleRequests(heed).length === 1);
  expect(await titleRow(heed, conversationId)).toMatchObject({ titleState: 'generating' });

  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  const renamed = await visitor.api.conversation.rename.mutate({ conversationId, title: '  My   invoice  ' });
  expect(renamed).toMatchObject({ title: 'My invoice', titleSource: 'manual', updatedAt: before.updatedAt.toISOString() });
  answer();

  expect(await pass).toMatchObject({ claimed: 1, outcomes: { skipped: 1, changed: 0 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    title: 'My invoice',
    titleSource: 'manual',
    titleState: 'manual',
    titleRequestedAt: null,
    titleLeaseUntil: null,
    updatedAt: before.updatedAt,
  });
  const [check] = await titleChecks(heed, conversationId);
  expect(check).toMatchObject({ outcome: 'skipped', errorCode: null });
  expect(check!.promptTokens).toBeGreaterThan(0);
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.title === 'My invoice');
  events.close();

  // manual stays manual: later replies request nothing and passes never call the model for it
  await sendAndAwaitReply(heed, visitor, conversationId, 'another question about the invoice');
  expect(await titleRow(heed, conversationId)).toMatchObject({ title: 'My invoice', titleRequestedAt: null });
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });
  expect(titleRequests(heed)).toHaveLength(1);
});

test('rename validates the title and never reaches another visitor’s conversation', async () => {
  const owner = await heed.visitor();
  const stranger = await heed.visitor();
  const conversationId = await owner.conversation();
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'OK',
      (e: unknown) => (e instanceof TRPCClientError ? e.data?.code : String(e)),
    );

  expect(await code(stranger.api.conversation.rename.mutate({ conversationId, title: 'Mine now' }))).toBe('NOT_FOUND');
  expect(await code(owner.api.conversation.rename.mutate({ conversationId, title: '   ' }))).toBe('BAD_REQUEST');
  expect(await code(owner.api.conversation.rename.mutate({ conversationId, title: 'x'.repeat(65) }))).toBe('BAD_REQUEST');
  expect(await code(owner.api.conversation.rename.mutate({ conversationId, title: 'bad\u0000title' }))).toBe('BAD_REQUEST');
  expect(await titleRow(heed, conversationId)).toMatchObject({ title: null, titleSource: null });

  // 64 characters after whitespace collapse is fine
  const title = `${'a'.repeat(31)}  \n  ${'b'.repeat(32)}`;
  expect(await owner.api.conversation.rename.mutate({ conversationId, title })).toMatchObject({
    title: `${'a'.repeat(31)} ${'b'.repeat(32)}`,
    titleSource: 'manual',
  });
  // a renamed conversation keeps its title when the first message arrives
  await owner.send(conversationId, 'the first message');
  expect(await titleRow(heed, conversationId)).toMatchObject({ titleSource: 'manual', titleState: 'manual' });
});
