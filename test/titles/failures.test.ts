import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ScriptedReply } from '../../api/src/model-server/types.ts';
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
  heed = await TestHeed.start({ env: { TITLE_MAX_ATTEMPTS: '3' } });
});
afterAll(() => heed?.stop());
beforeEach(() => resetTitleState(heed));

/** Stands in for the backoff elapsing (the test never waits on the wall clock). */
const backoffElapses = (conversationId: string) =>
  heed.services.db
    .$executeRaw`UPDATE "Conversation" SET "titleRequestedAt" = now() WHERE id = ${conversationId}::uuid AND "titleRequestedAt" IS NOT NULL`;

test('a model error, a timeout and a garbage answer each leave the title as it was, clear the request and are audited; after 3 attempts the fallback stays for good', async () => {
  const titleReplies: ScriptedReply[] = [{ error: { status: 500 } }, { hang: true }, { text: 'Sure! Here is a title: Shipping' }];
  heed.model.setResponder(titleAwareResponder(() => titleReplies.shift() ?? titleAnswer('Never reached')));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'how much is shipping to canada');
  const fallback = { title: 'how much is shipping to canada', titleSource: 'first_message' } as const;

  // 1. model error
  const before = await titleRow(heed, conversationId);
  expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { failed: 1 } });
  const afterError = await titleRow(heed, conversationId);
  expect(afterError).toMatchObject({
    ...fallback,
    titleState: 'pending',
    titleRequestedAt: null,
    titleLeaseUntil: null,
    titleAttempts: 1,
    updatedAt: before.updatedAt,
  });

  // the next reply asks again, after a backoff
  await sendAndAwaitReply(heed, visitor, conversationId, 'to Toronto, a small box');
  const retry = await titleRow(heed, conversationId);
  const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId }, orderBy: { fence: 'desc' } });
  expect(retry.titleRequestedAt!.getTime()).toBeGreaterThan(run.endedAt!.getTime());
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });

  // 2. timeout (a short one for the test; the default is 20 s)
  await backoffElapses(conversationId);
  expect(await heed.titlePass({ timeoutMs: 300 })).toMatchObject({ claimed: 1, outcomes: { failed: 1 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    ...fallback,
    titleState: 'pending',
    titleRequestedAt: null,
    titleAttempts: 2,
  });
  await heed.until('the timed-out call aborted', () => titleRequests(heed)[1]!.aborted);

  // 3. garbage (not the JSON asked for): rejected, and the third strike
  await sendAndAwaitReply(heed, visitor, conversationId, 'is there a tracking number');
  await backoffElapses(conversationId);
  expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { rejected: 1 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    ...fallback,
    titleState: 'failed',
    titleRequestedAt: null,
    titleLeaseUntil: null,
    titleAttempts: 3,
  });

  expect((await titleChecks(heed, conversationId)).map((c) => [c.outcome, c.errorCode])).toEqual([
    ['failed', 'model_unavailable'],
    ['failed', 'model_timeout'],
    ['rejected', 'invalid_answer'],
  ]);

  // bounded: no more requests, no more calls
  await sendAndAwaitReply(heed, visitor, conversationId, 'thanks');
  expect(await titleRow(heed, conversationId)).toMatchObject({ ...fallback, titleState: 'failed', titleRequestedAt: null });
  expect(await heed.titlePass()).toMatchObject({ claimed: 0 });
  expect(titleRequests(heed)).toHaveLength(3);
});

test('an answer that normalizes to nothing (emoji only) is rejected and the fallback stays', async () => {
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('🎉🎉🎉')));
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await sendAndAwaitReply(heed, visitor, conversationId, 'party supplies');
  expect(await heed.titlePass()).toMatchObject({ outcomes: { rejected: 1 } });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    title: 'party supplies',
    titleSource: 'first_message',
    titleState: 'pending',
    titleAttempts: 1,
  });
  expect((await titleChecks(heed, conversationId)).map((c) => [c.outcome, c.errorCode])).toEqual([['rejected', 'invalid_title']]);
});

test('a call whose worst-case cost is above the ceiling is never made; one whose actual cost is above it fails', async () => {
  heed.model.setResponder(
    titleAwareResponder(() => ({ ...titleAnswer('Expensive title'), usage: { prompt_tokens: 900_000, completion_tokens: 10 } })),
  );
  const visitor = await heed.visitor();
  const [cheap, pricey] = [await visitor.conversation(), await visitor.conversation()];
  await sendAndAwaitReply(heed, visitor, cheap, 'budget question one');

  expect(await heed.titlePass({ costCeilingUsd: 0.000001 })).toMatchObject({ claimed: 1, outcomes: { failed: 1 } });
  expect(titleRequests(heed)).toHaveLength(0);
  expect((await titleChecks(heed, cheap)).map((c) => [c.outcome, c.errorCode, c.costUsd])).toEqual([['failed', 'cost_ceiling', null]]);

  await sendAndAwaitReply(heed, visitor, pricey, 'budget question two');
  // 900k prompt tokens at the default price (10 USD per million) is 9 USD
  expect(await heed.titlePass()).toMatchObject({ claimed: 1, outcomes: { failed: 1 } });
  expect(titleRequests(heed)).toHaveLength(1);
  const [check] = await titleChecks(heed, pricey);
  expect(check).toMatchObject({ outcome: 'failed', errorCode: 'cost_ceiling', promptTokens: 900_000 });
  expect(Number(check!.costUsd)).toBeCloseTo(9.0003, 6);
  expect(await titleRow(heed, pricey)).toMatchObject({ title: 'budget question two', titleSource: 'first_message', titleAttempts: 1 });
});
