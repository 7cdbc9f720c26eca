import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LimitOverrides } from '../../api/src/limits/site-limits.ts';
import { StreamSlots } from '../../api/src/limits/stream-slots.ts';
import { WindowLimiters } from '../../api/src/limits/window-limiters.ts';
import type { Redis } from '../../api/src/redis/client.ts';
import { makeClient, TestHeed, TestVisitor, type EventLog } from '../support/harness.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';

/**
 * Every rate limit trips with 429, `Retry-After` and a machine-readable reason, per visitor
 * or per client address, with per-site overrides that apply without a restart, and keeps
 * working (in memory) when Redis is away. Each test uses its own site, so its counters are
 * its own. TRUST_PROXY=1 lets a test speak from several addresses (X-Forwarded-For).
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { TRUST_PROXY: '1', RATE_LIMITS: '{}', DEBOUNCE_MS: '100' } });
});
afterAll(() => heed?.stop());

/** A new site with its own limits. */
async function site(limits: LimitOverrides = {}) {
  const key = `limits-${randomUUID().slice(0, 8)}`;
  const { id } = await heed.services.db.site.create({ data: { key, name: 'Limited site', limits }, select: { id: true } });
  return { key, id };
}

async function visitorOf(siteKey: string): Promise<TestVisitor> {
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey });
  return new TestVisitor(heed, session.visitorToken, session.visitorId);
}

interface Answer {
  status: number;
  retryAfter: string | null;
  data?: { code: string; reason: string | null; retryAfterMs: number | null };
}

/** A tRPC mutation over plain HTTP, to see the status and headers. */
async function post(path: string, input: unknown, opts: { token?: string; ip?: string } = {}): Promise<Answer> {
  const res = await fetch(`${heed.url}/trpc/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}),
    },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { error?: { data: Answer['data'] } };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), data: body.error?.data };
}

function expectTooMany(answer: Answer, reason: string) {
  expect(answer.status).toBe(429);
  expect(answer.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason });
  expect(answer.data!.retryAfterMs).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBe(Math.ceil(answer.data!.retryAfterMs! / 1000));
}

const send = (v: TestVisitor, conversationId: string, content = 'hello') =>
  post('message.send', { conversationId, clientMessageId: randomUUID(), content }, { token: v.token });

describe('session.start', () => {
  test('is limited per client address and site: the next start gets 429 with Retry-After; other addresses and sites are unaffected', async () => {
    const a = await site({ sessionStart: { points: 2, seconds: 600 } });
    const b = await site({ sessionStart: { points: 2, seconds: 600 } });
    const before = await heed.services.db.visitor.count();
    expect((await post('session.start', { siteKey: a.key }, { ip: '203.0.113.7' })).status).toBe(200);
    expect((await post('session.start', { siteKey: a.key }, { ip: '203.0.113.7' })).status).toBe(200);
    expectTooMany(await post('session.start', { siteKey: a.key }, { ip: '203.0.113.7' }), 'session_start_limit');
    // refused before any work: no visitor was created for it
    expect(await heed.services.db.visitor.count()).toBe(before + 2);
    expect((await post('session.start', { siteKey: a.key }, { ip: '198.51.100.9' })).status).toBe(200);
    expect((await post('session.start', { siteKey: b.key }, { ip: '203.0.113.7' })).status).toBe(200);
  });

  test('an address spoofed in X-Forwarded-For in front of the trusted proxy does not escape the limit', async () => {
    const a = await site({ sessionStart: { points: 1, seconds: 600 } });
    expect((await post('session.start', { siteKey: a.key }, { ip: '1.1.1.1, 203.0.113.50' })).status).toBe(200);
    // the client wrote a new left-most entry; the proxy's own entry (right-most) is the same
    expectTooMany(await post('session.start', { siteKey: a.key }, { ip: '9.9.9.9, 203.0.113.50' }), 'session_start_limit');
  });

  test('unknown site keys are limited too (under the deployment’s limits)', async () => {
    const unknown = `missing-${randomUUID().slice(0, 8)}`;
    const answers = [];
    for (let i = 0; i < 61; i++) answers.push(await post('session.start', { siteKey: unknown }, { ip: '192.0.2.61' }));
    expect(answers.slice(0, 60).every((a) => a.status === 404)).toBe(true);
    expectTooMany(answers[60]!, 'session_start_limit');
  });
});

describe('message.send', () => {
  test('a burst over the short window is refused with 429 and stores nothing; another visitor still sends', async () => {
    const s = await site({ sendBurst: { points: 3, seconds: 600 } });
    const [alice, bob] = [await visitorOf(s.key), await visitorOf(s.key)];
    const conversationId = await alice.conversation();
    for (let i = 0; i < 3; i++) expect((await send(alice, conversationId, `quick ${i}`)).status).toBe(200);
    expectTooMany(await send(alice, conversationId, 'one too many'), 'send_burst_limit');
    const stored = await heed.services.db.message.findMany({ where: { conversationId, role: 'user' }, select: { content: true } });
    expect(stored.map((m) => m.content).sort()).toEqual(['quick 0', 'quick 1', 'quick 2']);
    expect((await send(bob, await bob.conversation())).status).toBe(200);
  });

  test('the sustained window limits a steady sender the burst window lets through', async () => {
    const s = await site({ sendBurst: { points: 100, seconds: 600 }, sendSustained: { points: 4, seconds: 3600 } });
    const visitor = await visitorOf(s.key);
    const conversationId = await visitor.conversation();
    for (let i = 0; i < 4; i++) expect((await send(visitor, conversationId)).status).toBe(200);
    const refused = await send(visitor, conversationId);
    expectTooMany(refused, 'send_sustained_limit');
    expect(refused.data!.retryAfterMs).toBeGreaterThan(600_000); // the hour's window, not the burst's
  });

  test('one address is held to its own window across all its visitors: the next send gets 429 send_ip_limit with Retry-After (the widget waits and sends it then) and stores nothing; other addresses still send', async () => {
    const s = await site({ sendsPerIp: { points: 5, seconds: 600 } });
    const office = '203.0.113.80';
    const visitors = [await visitorOf(s.key), await visitorOf(s.key), await visitorOf(s.key)];
    const conversations = await Promise.all(visitors.map((v) => v.conversation()));
    const from = (i: number, content: string, ip = office) =>
      post(
        'message.send',
        { conversationId: conversations[i]!, clientMessageId: randomUUID(), content },
        { token: visitors[i]!.token, ip },
      );
    // five sends from three fresh visitors behind one address: each visitor is far within its own windows
    for (const [i, v] of [0, 1, 2, 0, 1].entries()) expect((await from(v, `office ${i}`)).status).toBe(200);
    const refused = await from(2, 'the sixth from the office');
    expectTooMany(refused, 'send_ip_limit');
    expect(await heed.services.db.message.count({ where: { content: 'the sixth from the office' } })).toBe(0);
    // the same visitor from another address, and another visitor elsewhere, still send
    expect((await from(2, 'from home', '198.51.100.80')).status).toBe(200);
    expect(refused.data!.retryAfterMs).toBeLessThanOrEqual(600_000);
  });

  test('a site’s new limits apply without a restart, read within seconds by every process', async () => {
    const roomy = {
      sendBurst: { points: 1000, seconds: 600 },
      sendSustained: { points: 1000, seconds: 3600 },
      sendsPerIp: { points: 1000, seconds: 600 },
    };
    const s = await site(roomy);
    const visitor = await visitorOf(s.key);
    const conversationId = await visitor.conversation();
    expect((await send(visitor, conversationId)).status).toBe(200);
    // as the console (another process) would: straight into the database, no cache here is told
    await heed.services.db.site.update({ where: { id: s.id }, data: { limits: { ...roomy, sendBurst: { points: 1, seconds: 600 } } } });
    // the policy cache reads the change within its TTL; the next send is then held to the new limit
    await heed.until('the new limits read', async () => (await heed.services.limits.sites.forSite(s.id)).sendBurst.points === 1);
    expectTooMany(await send(visitor, conversationId), 'send_burst_limit');
  });
});

describe('model runs', () => {
  test('a run over the visitor’s limit waits: no model call, the message stays pending, and it is answered once the window allows', async () => {
    const s = await site({ modelRuns: { points: 1, seconds: 8 } });
    const visitor = await visitorOf(s.key);
    const [first, second] = [await visitor.conversation(), await visitor.conversation()];
    heed.model.setResponder(() => ({ text: 'Answered.' }));
    await visitor.send(first, 'first question');
    await visitor.send(second, 'second question');
    const db = heed.services.db;
    // one conversation runs, the other is left waiting on the limit
    const waiting = await heed.until('a run to wait', () =>
      [first, second].find((id) => heed.logs.some((l) => l.includes(id) && l.includes('model-run limit'))),
    );
    const held = await db.message.findFirstOrThrow({
      where: { conversationId: waiting, role: 'user' },
      select: { state: true, content: true },
    });
    expect(held.state).toBe('pending');
    expect(heed.model.requests.filter((r) => JSON.stringify(r.body.messages).includes(held.content))).toHaveLength(0);
    // nothing is lost: both are answered, each exactly once
    await heed.until(
      'both answered',
      async () => (await db.message.count({ where: { conversationId: { in: [first, second] }, role: 'assistant', error: null } })) === 2,
      30_000,
    );
    expect(await db.message.count({ where: { conversationId: { in: [first, second] }, role: 'user', state: 'answered' } })).toBe(2);
    expect(await db.run.count({ where: { conversationId: { in: [first, second] } } })).toBe(2);
  });
  test('polls that find the conversation held by another worker spend none of its visitor’s model runs: answered at once when the lock is free', async () => {
    const s = await site({ modelRuns: { points: 1, seconds: 120 } });
    const visitor = await visitorOf(s.key);
    const conversationId = await visitor.conversation();
    heed.model.setResponder(() => ({ text: 'Answered.' }));
    // another worker holds the conversation's lock while this one's polls find the batch due
    const lock = heed.services.keys.lock(conversationId);
    await heed.services.redis.set(lock, 'another-worker', { expiration: { type: 'PX', value: 60_000 } });
    await visitor.send(conversationId, 'a question while the lock is held');
    // several polls find it due and the lock taken
    const polls = async () => (await heed.services.metrics.workerPolls.get()).values.reduce((n, v) => n + v.value, 0);
    const before = await polls();
    await heed.until('several polls', async () => (await polls()) >= before + 5);
    expect(heed.model.requests).not.toContainEqual(
      expect.objectContaining({
        body: expect.objectContaining({
          messages: expect.arrayContaining([expect.objectContaining({ content: expect.stringContaining('while the lock is held') })]),
        }),
      }),
    );
    await heed.services.redis.del(lock);
    // the one run the window allows is still there: answered now, not after the window
    await heed.until(
      'answered once the lock is free',
      async () => (await heed.services.db.message.count({ where: { conversationId, role: 'assistant', error: null } })) === 1,
      10_000,
    );
    expect(heed.logs.filter((l) => l.includes(conversationId) && l.includes('model-run limit'))).toEqual([]);
  });
});

describe('event streams', () => {
  const live = (log: EventLog) => log.events.length > 0;
  const refusal = (log: EventLog) =>
    log.errors[0] instanceof TRPCClientError ? (log.errors[0].data as { code: string; reason: string; retryAfterMs: number }) : null;

  test.skipIf(isEmbeddedTestRun())('are limited per visitor and per address at once; closing one frees its slot', async () => {
    const s = await site({ streamsPerVisitor: 2, streamsPerIp: 3 });
    const [alice, bob] = [await visitorOf(s.key), await visitorOf(s.key)];
    const a1 = alice.subscribe();
    const a2 = alice.subscribe();
    const slots = `${heed.config.REDIS_PREFIX}limit:streams:visitor:${alice.visitorId}`;
    await heed.until('two streams held', async () => (await heed.services.redis.zCard(slots)) === 2);
    const a3 = alice.subscribe();
    await heed.until('the third refused', () => refusal(a3));
    expect(refusal(a3)).toMatchObject({ code: 'TOO_MANY_REQUESTS', reason: 'streams_per_visitor_limit' });
    expect(refusal(a3)!.retryAfterMs).toBeGreaterThan(0);

    const b1 = bob.subscribe();
    const b2 = bob.subscribe(); // the address's fourth
    await heed.until('the address limit', () => refusal(b2) ?? refusal(b1));
    expect([refusal(b1), refusal(b2)].filter(Boolean)).toEqual([
      expect.objectContaining({ code: 'TOO_MANY_REQUESTS', reason: 'streams_per_ip_limit' }),
    ]);

    // the streams held are live: they get the visitor's events
    await alice.conversation();
    await heed.until('alice’s streams live', () => live(a1) && live(a2));
    expect(live(a3)).toBe(false);

    a1.close();
    await heed.until('the slot released on disconnect', async () => (await heed.services.redis.zCard(slots)) === 1);
    const a4 = alice.subscribe();
    await heed.until('a new stream held', async () => (await heed.services.redis.zCard(slots)) === 2);
    await alice.conversation();
    await heed.until('the new stream live', () => live(a4));
    expect(a4.errors).toEqual([]);
    for (const log of [a2, a4, b1, b2]) log.close();
  });
});

describe('when Redis is away', () => {
  /** A client for a port nothing listens on, never connected: `isReady` is false, like during an outage. */
  const deadRedis = () => createClient({ url: 'redis://127.0.0.1:1' }) as unknown as Redis;

  test('window limits fall back to the in-memory insurance limiter: still limited, never failing', async () => {
    const limiters = new WindowLimiters(deadRedis(), `heed-test:${randomUUID().slice(0, 8)}:`);
    const rule = { points: 2, seconds: 60 };
    expect(await limiters.consume('sendBurst', rule, 'visitor-1')).toEqual({ ok: true });
    expect(await limiters.consume('sendBurst', rule, 'visitor-1')).toEqual({ ok: true });
    const refused = await limiters.consume('sendBurst', rule, 'visitor-1');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.retryAfterMs).toBeGreaterThan(0);
    expect(await limiters.consume('sendBurst', rule, 'visitor-2')).toEqual({ ok: true });
  });

  test.skipIf(isEmbeddedTestRun())('a limiter whose Redis goes away mid-way keeps answering from memory', async () => {
    const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) as unknown as Redis;
    client.on('error', () => {});
    await client.connect();
    const limiters = new WindowLimiters(client, `heed-test:${randomUUID().slice(0, 8)}:`);
    const rule = { points: 1, seconds: 60 };
    expect(await limiters.consume('modelRuns', rule, 'v')).toEqual({ ok: true });
    expect((await limiters.consume('modelRuns', rule, 'v')).ok).toBe(false); // counted in Redis
    client.destroy();
    expect(await limiters.consume('modelRuns', rule, 'v')).toEqual({ ok: true }); // memory starts afresh
    expect((await limiters.consume('modelRuns', rule, 'v')).ok).toBe(false);
  });

  test('stream slots are counted in memory, and released', async () => {
    const slots = new StreamSlots(deadRedis());
    const limit = [{ key: 'streams:v', max: 1 }];
    const held = await slots.acquire(limit);
    expect(typeof held).toBe('object');
    expect(await slots.acquire(limit)).toBe(0);
    await (held as { release(): Promise<void> }).release();
    const again = await slots.acquire(limit);
    expect(typeof again).toBe('object');
    await (again as { release(): Promise<void> }).release();
  });
});

test.skipIf(isEmbeddedTestRun())('a stream slot a crashed process never released expires instead of counting forever', async () => {
  const slots = new StreamSlots(heed.services.redis);
  const key = `${heed.config.REDIS_PREFIX}limit:streams:test:${randomUUID()}`;
  const orphan = await slots.acquire([{ key, max: 1 }]);
  expect(typeof orphan).toBe('object');
  expect(await slots.acquire([{ key, max: 1 }])).toBe(0);
  // the process "dies": no release, no heartbeat; its slot's expiry passes
  for (const { value } of await heed.services.redis.zRangeWithScores(key, 0, -1)) await heed.services.redis.zAdd(key, { score: 1, value });
  const next = await slots.acquire([{ key, max: 1 }]);
  expect(typeof next).toBe('object');
  await (next as { release(): Promise<void> }).release();
  await (orphan as { release(): Promise<void> }).release();
});
