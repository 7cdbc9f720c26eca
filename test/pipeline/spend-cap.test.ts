import { randomUUID } from 'node:crypto';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { addSiteUsage, spendCapReached, USAGE_SHARDS } from '../../api/src/limits/site-usage.ts';
import { makeClient, TestHeed, TestVisitor } from '../support/harness.ts';
import { isTitleRequest, replyRequests, resetTitleState, titleRequests } from '../support/titles.ts';

/**
 * The daily spend cap per site: every reply and title check adds its tokens and cost (from
 * the price table) to the site's day; at the cap the model is not called, the visitor reads
 * a polite failed reply, titles are skipped, and operators see why through `admin.*`.
 * Prices are set so a scripted usage of 100k prompt + 50k completion tokens costs $0.20.
 */
const ADMIN_TOKEN = 'operator-token-for-spend-tests-0123456789';
const USAGE = { prompt_tokens: 100_000, completion_tokens: 50_000 };
const COST = 0.2;

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({
    env: {
      ADMIN_TOKEN,
      SPEND_CAP_USD_PER_DAY: '1000',
      MODEL_PRICE_INPUT_USD: '1',
      MODEL_PRICE_OUTPUT_USD: '2',
      TITLE_PRICE_INPUT_USD: '1',
      TITLE_PRICE_OUTPUT_USD: '2',
      // every title call is priced far above the title ceiling otherwise
      TITLE_COST_CEILING_USD: '1',
    },
  });
});
afterAll(() => heed?.stop());
beforeEach(() => resetTitleState(heed));

const operator = () => makeClient(heed.url, ADMIN_TOKEN);

/** A new site (its own day row) with one visitor. */
async function siteWithVisitor(dailySpendCapUsd: number | null = null) {
  const key = `spend-${randomUUID().slice(0, 8)}`;
  const site = await heed.services.db.site.create({ data: { key, name: 'Spending site', dailySpendCapUsd }, select: { id: true } });
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: key });
  return { key, siteId: site.id, visitor: new TestVisitor(heed, session.visitorToken, session.visitorId) };
}

/** The site's latest day of usage: its rows summed (a day is spread over a few rows, site-usage.ts). */
async function today(siteId: string) {
  const db = heed.services.db;
  const latest = await db.siteUsage.findFirst({ where: { siteId }, orderBy: { day: 'desc' }, select: { day: true } });
  if (!latest) return null;
  const { _sum } = await db.siteUsage.aggregate({
    where: { siteId, day: latest.day },
    _sum: { modelRequests: true, promptTokens: true, completionTokens: true, costUsd: true, capRefusals: true },
  });
  return _sum;
}

/** Replies use `USAGE`; title requests answer `title` with a small usage. */
function respond(title = 'Shipping question') {
  heed.model.setResponder((req) =>
    isTitleRequest(req)
      ? { text: JSON.stringify({ title, changed: true }), usage: { prompt_tokens: 1000, completion_tokens: 500 } }
      : { text: 'Here is your answer.', usage: USAGE },
  );
}

/** Sends `content` and resolves with the reply (or failed reply) stored for it. */
async function replyTo(visitor: TestVisitor, conversationId: string, content: string) {
  const db = heed.services.db;
  const before = await db.message.count({ where: { conversationId, role: 'assistant' } });
  await visitor.send(conversationId, content);
  await heed.until('the reply', async () => (await db.message.count({ where: { conversationId, role: 'assistant' } })) > before);
  return db.message.findFirstOrThrow({
    where: { conversationId, role: 'assistant' },
    orderBy: { seq: 'desc' },
    select: { content: true, error: true },
  });
}

test('each reply adds its tokens and cost to its run and to the site’s day; title checks add theirs', async () => {
  respond();
  const { siteId, visitor } = await siteWithVisitor();
  const conversationId = await visitor.conversation();
  await replyTo(visitor, conversationId, 'When do you ship to Norway?');
  const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId } });
  expect(Number(run.costUsd)).toBeCloseTo(COST, 8);
  expect(await today(siteId)).toMatchObject({ modelRequests: 1, promptTokens: 100_000n, completionTokens: 50_000n, capRefusals: 0 });
  expect(Number((await today(siteId))!.costUsd)).toBeCloseTo(COST, 8);

  await replyTo(visitor, conversationId, 'And to Iceland?');
  await heed.titlePass();
  expect(titleRequests(heed)).toHaveLength(1);
  const usage = (await today(siteId))!;
  // two replies, one title check: (1000 × $1 + 500 × $2) / 1M = $0.002
  expect(usage).toMatchObject({ modelRequests: 3, promptTokens: 201_000n, completionTokens: 100_500n });
  expect(Number(usage.costUsd)).toBeCloseTo(2 * COST + 0.002, 8);
});

test('at the cap the model is not called: the visitor gets the polite failed reply, the refusal is counted, titles are skipped', async () => {
  respond('Never written');
  const { key, siteId, visitor } = await siteWithVisitor(0.1);
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await replyTo(visitor, conversationId, 'First question'); // $0.20: the day is now over its $0.10 cap
  const calls = replyRequests(heed).length;

  await visitor.send(conversationId, 'Second question');
  const failed = await events.waitFor((e) => e.type === 'reply.failed');
  expect(failed.type === 'reply.failed' && failed.message).toMatchObject({
    error: 'spend_cap',
    content: 'The assistant is unavailable right now. Please try again later.',
  });
  expect(replyRequests(heed)).toHaveLength(calls);
  const { conversations } = await visitor.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({
    failed: true,
    excerpt: 'Reply failed: The assistant is unavailable right now. Please try again later.',
  });
  expect(await heed.services.db.run.findFirst({ where: { conversationId, error: 'spend_cap' } })).toMatchObject({
    status: 'failed',
    attempts: 0,
  });
  expect(await today(siteId)).toMatchObject({ modelRequests: 1, capRefusals: 1 });

  // the first reply asked for a title: the pass makes no call and leaves the title as it was
  const before = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { title: true } });
  const pass = await heed.titlePass();
  expect(pass.outcomes.skipped).toBe(1);
  expect(titleRequests(heed)).toHaveLength(0);
  const after = await heed.services.db.conversation.findUniqueOrThrow({
    where: { id: conversationId },
    select: { title: true, titleState: true, titleRequestedAt: true },
  });
  expect(after).toMatchObject({ title: before.title, titleState: 'pending', titleRequestedAt: null });
  expect(await heed.services.db.titleCheck.findFirst({ where: { conversationId } })).toMatchObject({
    outcome: 'skipped',
    errorCode: 'spend_cap',
  });

  // the operator sees why
  const report = await operator().admin.siteUsage.query({ siteKey: key });
  expect(report.spendCap).toMatchObject({ dailyUsd: 0.1, source: 'site', reached: true, remainingUsd: 0 });
  expect(report.days[0]).toMatchObject({ modelRequests: 1, capRefusals: 1, costUsd: COST });
  events.close();
});

test('operators raise the cap with admin.setSiteLimits and replies resume; limits are validated and reported', async () => {
  respond();
  const { key, visitor } = await siteWithVisitor(0);
  const conversationId = await visitor.conversation();
  const refused = await replyTo(visitor, conversationId, 'Is anyone there?');
  expect(refused).toMatchObject({ error: 'spend_cap' });
  expect(heed.model.requests.filter((r) => !isTitleRequest(r))).toHaveLength(0);

  const set = await operator().admin.setSiteLimits.mutate({
    siteKey: key,
    dailySpendCapUsd: 5,
    limits: { sendBurst: { points: 3, seconds: 10 } },
  });
  expect(set.spendCap).toMatchObject({ dailyUsd: 5, source: 'site', reached: false });
  expect(set.limits.overrides).toEqual({ sendBurst: { points: 3, seconds: 10 } });
  expect(set.limits.effective.sendBurst).toEqual({ points: 3, seconds: 10 });

  expect(await visitor.api.message.retry.mutate({ conversationId })).toEqual({ requeued: 1 });
  await heed.until('the answer', () => heed.services.db.message.findFirst({ where: { conversationId, role: 'assistant', error: null } }));

  // back to the deployment's default cap and limits
  const reset = await operator().admin.setSiteLimits.mutate({ siteKey: key, dailySpendCapUsd: null, limits: {} });
  expect(reset.spendCap).toMatchObject({ dailyUsd: 1000, source: 'default' });
  expect(reset.limits.overrides).toEqual({});

  const week = await operator().admin.siteUsage.query({ siteKey: key, days: 7 });
  expect(week.days).toHaveLength(7);
  expect(week.days[0]).toMatchObject({ modelRequests: 1, capRefusals: 1 });
  expect(week.days.slice(1).every((d) => d.modelRequests === 0 && d.costUsd === 0)).toBe(true);

  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e) => (e instanceof TRPCClientError ? (e.data as { code: string }).code : String(e)),
    );
  expect(await code(operator().admin.setSiteLimits.mutate({ siteKey: key, limits: { sendBurst: { points: 0, seconds: 10 } } }))).toBe(
    'BAD_REQUEST',
  );
  expect(
    await code(operator().admin.setSiteLimits.mutate({ siteKey: key, limits: { sendBrust: { points: 1, seconds: 10 } } as never })),
  ).toBe('BAD_REQUEST');
  expect(await code(operator().admin.setSiteLimits.mutate({ siteKey: key, dailySpendCapUsd: -1 }))).toBe('BAD_REQUEST');
  expect(await code(operator().admin.siteUsage.query({ siteKey: 'no-such-site' }))).toBe('NOT_FOUND');
  expect(await code(makeClient(heed.url, visitor.token).admin.siteUsage.query({ siteKey: key }))).toBe('UNAUTHORIZED');
  expect(await code(makeClient(heed.url, null).admin.setSiteLimits.mutate({ siteKey: key, dailySpendCapUsd: 1_000_000 }))).toBe(
    'UNAUTHORIZED',
  );
});

test('runs finishing at once each count: the day is spread over a few rows, and the report and the cap read their sum', async () => {
  const { key, siteId } = await siteWithVisitor(0.25);
  const db = heed.services.db;
  // 24 finishing transactions at once, each adding one request and one cent, as completeRun does last
  await Promise.all(
    Array.from({ length: 24 }, () => db.$transaction((tx) => addSiteUsage(tx, siteId, { modelRequests: 1, costUsd: 0.01 }))),
  );
  const rows = await db.siteUsage.findMany({ where: { siteId } });
  expect(rows.length).toBeGreaterThan(1);
  expect(rows.length).toBeLessThanOrEqual(USAGE_SHARDS);
  expect(await today(siteId)).toMatchObject({ modelRequests: 24 });
  const [day] = (await operator().admin.siteUsage.query({ siteKey: key, days: 1 })).days;
  expect(day).toMatchObject({ modelRequests: 24 });
  expect(day!.costUsd).toBeCloseTo(0.24, 8);
  // $0.24 of a $0.25 cap: one more cent reaches it
  expect(await spendCapReached(db, siteId, 25)).toBe(false);
  await db.$transaction((tx) => addSiteUsage(tx, siteId, { modelRequests: 1, costUsd: 0.01 }));
  expect(await spendCapReached(db, siteId, 25)).toBe(true);
});
