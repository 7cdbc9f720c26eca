import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { budgetRefusal, type BudgetFacts } from '../../api/src/proactive/budget.ts';
import { claimBatch } from '../../api/src/chat/schedule/claim-batch.ts';

const NOW = new Date('2026-12-01T12:00:00Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const clear: BudgetFacts = {
  held: false,
  liveRun: false,
  pendingBatch: false,
  unsolicitedToday: 0,
  queuedAhead: 0,
  newestVisitorAt: null,
  newestUnsolicited: null,
};
const decide = (f: Partial<BudgetFacts>, perDay = 2) => budgetRefusal({ ...clear, ...f }, { perDay, now: NOW });

describe('the budget decides on facts (pure)', () => {
  test('a visitor with nothing against them may get one', () => expect(decide({})).toBeNull());
  test('held or waiting for a person refuses first', () => expect(decide({ held: true, pendingBatch: true })).toBe('held'));
  test('a pending batch refuses', () => expect(decide({ pendingBatch: true, liveRun: true })).toBe('pending_batch'));
  test('a live run refuses', () => expect(decide({ liveRun: true })).toBe('live_run'));
  test('K in the last 24 h refuses, and one queued counts', () => {
    expect(decide({ unsolicitedToday: 2, newestVisitorAt: ago(1), newestUnsolicited: { at: ago(5), read: true } })).toBe('daily_budget');
    expect(decide({ unsolicitedToday: 1, queuedAhead: 1 })).toBe('daily_budget');
    expect(decide({ unsolicitedToday: 0 }, 0)).toBe('daily_budget');
  });
  test('two in a row without a visitor message between refuses', () => {
    expect(decide({ unsolicitedToday: 1, newestVisitorAt: ago(10), newestUnsolicited: { at: ago(5), read: true } })).toBe('twice_in_a_row');
    expect(decide({ unsolicitedToday: 0, newestUnsolicited: { at: ago(3000), read: true } })).toBe('twice_in_a_row');
    expect(decide({ queuedAhead: 1 }, 5)).toBe('twice_in_a_row');
  });
  test('the last one unread within the day refuses; older than a day it no longer does', () => {
    expect(decide({ unsolicitedToday: 1, newestVisitorAt: ago(1), newestUnsolicited: { at: ago(60), read: false } })).toBe(
      'unread_unsolicited',
    );
    expect(decide({ newestVisitorAt: ago(1), newestUnsolicited: { at: ago(25 * 60), read: false } })).toBeNull();
    expect(decide({ unsolicitedToday: 1, newestVisitorAt: ago(1), newestUnsolicited: { at: ago(60), read: true } })).toBeNull();
  });
});

describe('intent.fire asks the budget with facts from the rows', () => {
  let heed: TestHeed;
  let siteId: string;
  beforeAll(async () => {
    // no workers: nothing claims, so each test sees exactly the rows it made
    heed = await TestHeed.start({ workers: 0 });
    siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
    await heed.services.db.intentRule.create({
      data: { siteId, name: 'viewed_pricing', label: 'viewed Pricing', instruction: 'Offer help choosing a plan.' },
    });
  });
  afterAll(() => heed?.stop());

  const db = () => heed.services.db;
  const fire = (v: TestVisitor) => v.api.intent.fire.mutate({ name: 'viewed_pricing' });
  const refusals = async (reason: string) =>
    (await db().proactiveRefusal.findMany({ where: { siteId, reason } })).reduce((n, r) => n + r.count, 0);

  /** A visitor with one conversation in which they wrote once and were answered `minutesAgo`. */
  async function talkedVisitor(minutesAgo = 30): Promise<{ v: TestVisitor; conversationId: string }> {
    const v = await heed.visitor();
    const conversationId = await v.conversation();
    const at = new Date(Date.now() - minutesAgo * 60_000);
    await db().message.create({
      data: { conversationId, visitorId: v.visitorId, role: 'user', content: 'Hi', state: 'answered', createdAt: at },
    });
    await db().message.create({
      data: { conversationId, visitorId: v.visitorId, role: 'assistant', content: 'Hello!', createdAt: new Date(at.getTime() + 1000) },
    });
    return { v, conversationId };
  }

  /** An unsolicited message `minutesAgo`, read or not. */
  async function unsolicited(v: TestVisitor, conversationId: string, minutesAgo: number, read: boolean) {
    const at = new Date(Date.now() - minutesAgo * 60_000);
    await db().message.create({
      data: {
        conversationId,
        visitorId: v.visitorId,
        role: 'assistant',
        content: 'Need help?',
        provenance: 'intent',
        provenanceLabel: 'viewed Pricing',
        createdAt: at,
      },
    });
    await db().conversation.update({ where: { id: conversationId }, data: { lastAssistantAt: at, lastReadAt: read ? at : null } });
  }

  async function expectIgnored(v: TestVisitor, reason: string) {
    const before = await refusals(reason);
    expect(await fire(v)).toEqual({ status: 'ignored' });
    expect(await refusals(reason)).toBe(before + 1);
  }

  test('a visitor with no conversation gets one opened and the request queued', async () => {
    const v = await heed.visitor();
    expect(await fire(v)).toEqual({ status: 'queued' });
    const requests = await db().proactiveRequest.findMany({ where: { visitorId: v.visitorId } });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ kind: 'intent', name: 'viewed_pricing', status: 'pending', text: null });
    expect(await db().conversation.count({ where: { visitorId: v.visitorId } })).toBe(1);
  });

  test('held: never into a conversation an operator holds, or one waiting for a person', async () => {
    const { v, conversationId } = await talkedVisitor();
    const operator = await db().operator.create({ data: { email: `op-${Date.now()}@example.test`, name: 'Ana', role: 'agent' } });
    await db().conversation.update({ where: { id: conversationId }, data: { heldById: operator.id, heldAt: new Date() } });
    await expectIgnored(v, 'held');
    await db().conversation.update({ where: { id: conversationId }, data: { heldById: null, heldAt: null, waitingSince: new Date() } });
    await expectIgnored(v, 'held');
  });

  test('pending_batch: never while a visitor message waits for its reply (any conversation)', async () => {
    const { v } = await talkedVisitor();
    const other = await v.conversation();
    await v.send(other, 'Where is my order?');
    await expectIgnored(v, 'pending_batch');
  });

  test('live_run: never while a run writes for the visitor', async () => {
    const { v, conversationId } = await talkedVisitor();
    const other = await v.conversation();
    await db().run.create({
      data: { conversationId: other, fence: 1, status: 'streaming', workerId: 'test', leaseUntil: new Date(Date.now() + 60_000) },
    });
    await db().conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } });
    await expectIgnored(v, 'live_run');
  });

  test('daily_budget: at most K unsolicited messages in the last 24 hours', async () => {
    const { v, conversationId } = await talkedVisitor(600);
    await db().site.update({ where: { id: siteId }, data: { unsolicitedPerDay: 1 } });
    try {
      await unsolicited(v, conversationId, 120, true);
      // the visitor wrote after it, and read it: only the count is left against them
      await db().message.create({
        data: {
          conversationId,
          visitorId: v.visitorId,
          role: 'user',
          content: 'ok',
          state: 'answered',
          createdAt: new Date(Date.now() - 60_000),
        },
      });
      await expectIgnored(v, 'daily_budget');
      await db().site.update({ where: { id: siteId }, data: { unsolicitedPerDay: 2 } });
      expect(await fire(v)).toEqual({ status: 'queued' });
    } finally {
      await db().site.update({ where: { id: siteId }, data: { unsolicitedPerDay: 2 } });
    }
  });

  test('twice_in_a_row: never two unsolicited messages without a visitor message between them', async () => {
    const { v, conversationId } = await talkedVisitor(600);
    await unsolicited(v, conversationId, 60, true);
    await expectIgnored(v, 'twice_in_a_row');
    // and one already queued counts as the first of the two
    const fresh = await heed.visitor();
    expect(await fire(fresh)).toEqual({ status: 'queued' });
    await expectIgnored(fresh, 'twice_in_a_row');
  });

  test('unread_unsolicited: never while the last unsolicited message of the day is unread', async () => {
    const { v, conversationId } = await talkedVisitor(600);
    await unsolicited(v, conversationId, 120, false);
    // the visitor wrote elsewhere since (so it is not "twice in a row"), but never read it
    const other = await v.conversation();
    await db().message.create({
      data: {
        conversationId: other,
        visitorId: v.visitorId,
        role: 'user',
        content: 'hm',
        state: 'answered',
        createdAt: new Date(Date.now() - 60_000),
      },
    });
    await expectIgnored(v, 'unread_unsolicited');
    await db().conversation.update({ where: { id: conversationId }, data: { lastReadAt: new Date() } });
    expect(await fire(v)).toEqual({ status: 'queued' });
  });
});

describe('the claim asks the budget again', () => {
  let heed: TestHeed;
  let siteId: string;
  beforeAll(async () => {
    heed = await TestHeed.start({ workers: 0 });
    siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
    await heed.services.db.intentRule.create({
      data: { siteId, name: 'viewed_pricing', label: 'viewed Pricing', fixedMessage: 'Questions about plans?' },
    });
  });
  afterAll(() => heed?.stop());

  const claim = (conversationId: string) => claimBatch(heed.services, { conversationId, workerId: 'test', leaseMs: 5000 });

  test('a queued request is refused (pending_batch) when the visitor has pending messages by the time a run claims it', async () => {
    const db = heed.services.db;
    const v = await heed.visitor();
    expect(await v.api.intent.fire.mutate({ name: 'viewed_pricing' })).toEqual({ status: 'queued' });
    const request = await db.proactiveRequest.findFirstOrThrow({ where: { visitorId: v.visitorId } });
    // the visitor writes in another conversation before any worker came round
    const other = await v.conversation();
    await v.send(other, 'Actually, one question first.');
    const counted = await db.proactiveRefusal.findMany({ where: { siteId, reason: 'pending_batch' } });

    expect(await claim(request.conversationId)).toBeNull();
    expect(await db.proactiveRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: 'refused',
      reason: 'pending_batch',
      runId: null,
    });
    // the claim rolled back: no run was opened, the fence did not move
    expect(await db.run.count({ where: { conversationId: request.conversationId } })).toBe(0);
    const after = await db.proactiveRefusal.findMany({ where: { siteId, reason: 'pending_batch' } });
    expect(after.reduce((n, r) => n + r.count, 0)).toBe(counted.reduce((n, r) => n + r.count, 0) + 1);
  });

  test('a claim takes the request with its run, and a crashed run’s request is taken over by the next claim', async () => {
    const db = heed.services.db;
    const v = await heed.visitor();
    expect(await v.api.intent.fire.mutate({ name: 'viewed_pricing' })).toEqual({ status: 'queued' });
    const request = await db.proactiveRequest.findFirstOrThrow({ where: { visitorId: v.visitorId } });
    const first = await claim(request.conversationId);
    expect(first?.messageIds).toEqual([]);
    expect(first?.proactive).toMatchObject({
      requestId: request.id,
      kind: 'intent',
      label: 'viewed Pricing',
      text: 'Questions about plans?',
    });
    expect(await db.run.findUniqueOrThrow({ where: { id: first!.runId } })).toMatchObject({ proactiveId: request.id });
    // the run dies: its lease runs out, and the next claim retires it and takes the request over
    await db.run.update({ where: { id: first!.runId }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    const second = await claim(request.conversationId);
    expect(second?.proactive?.requestId).toBe(request.id);
    expect(second!.fence).toBeGreaterThan(first!.fence);
    expect(await db.proactiveRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: 'claimed',
      runId: second!.runId,
    });
  });

  test('a request the visitor overtook by writing is refused at claim (visitor_wrote)', async () => {
    const db = heed.services.db;
    const v = await heed.visitor();
    expect(await v.api.intent.fire.mutate({ name: 'viewed_pricing' })).toEqual({ status: 'queued' });
    const request = await db.proactiveRequest.findFirstOrThrow({ where: { visitorId: v.visitorId } });
    // they wrote (and were answered) before the request's turn came
    await db.message.create({
      data: { conversationId: request.conversationId, visitorId: v.visitorId, role: 'user', content: 'hi', state: 'answered' },
    });
    expect(await claim(request.conversationId)).toBeNull();
    expect(await db.proactiveRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: 'refused',
      reason: 'visitor_wrote',
    });
  });
});

describe('intent.fire is rate-limited with the visitor’s sends', () => {
  let heed: TestHeed;
  beforeAll(async () => {
    heed = await TestHeed.start({ workers: 0, env: { RATE_LIMITS: JSON.stringify({ sendBurst: { points: 3, seconds: 60 } }) } });
  });
  afterAll(() => heed?.stop());

  test('past the burst window it is refused with 429 send_burst_limit (the one error the page may see)', async () => {
    const v = await heed.visitor();
    for (let i = 0; i < 3; i++) expect(await v.api.intent.fire.mutate({ name: 'anything' })).toEqual({ status: 'ignored' });
    await expect(v.api.intent.fire.mutate({ name: 'anything' })).rejects.toMatchObject({
      data: { code: 'TOO_MANY_REQUESTS', reason: 'send_burst_limit' },
    });
  });
});
