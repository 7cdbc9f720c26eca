import { randomUUID } from 'node:crypto';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { signingKeys } from '../../api/src/auth/signing-keys.ts';
import { signVisitorToken } from '../../api/src/auth/visitor-token.ts';
import { makeClient, TestHeed, unwrapEvent, type Client, type TestVisitor } from '../support/harness.ts';
import type { VisitorEvent } from '../../api/src/events/event-types.ts';

/**
 * One visitor can never read, change or even detect another visitor's data through any
 * procedure of the visitor API. Someone else's id answers exactly like an id that does not
 * exist (NOT_FOUND, never FORBIDDEN), so ids cannot be probed. Without a genuine token
 * nothing is served at all.
 */
let heed: TestHeed;
let alice: TestVisitor;
let bob: TestVisitor;
/** Alice's conversation with an answered question and an unread reply */
let answered: string;
/** Alice's conversation whose reply failed (retryable) */
let failed: string;
let aliceReplyAt: string;
let siteId: string;

beforeAll(async () => {
  heed = await TestHeed.start({ env: { DEBOUNCE_MS: '20' } });
  siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
  alice = await heed.visitor('Europe/Paris');
  bob = await heed.visitor('America/New_York');
  const events = alice.subscribe();
  answered = await alice.conversation();
  failed = await alice.conversation();
  heed.model.script({ text: 'Your order #1234 ships tomorrow.' });
  await alice.send(answered, 'Where is my order #1234? My address is 12 Rue de Rivoli.');
  await events.waitFor((e) => e.type === 'reply.completed' && e.conversationId === answered);
  heed.model.script({ error: { status: 400 } }); // not retried: one request, then a failed reply
  await alice.send(failed, 'Can I change my card number?');
  await events.waitFor((e) => e.type === 'reply.failed' && e.conversationId === failed);
  events.close();
  aliceReplyAt = (await alice.api.conversation.get.query({ conversationId: answered })).conversation.lastAssistantAt!;
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

/** Everything stored about Alice, straight from the database. */
async function aliceData() {
  const db = heed.services.db;
  const [visitor, conversations, messages, runs, events] = await Promise.all([
    db.visitor.findUniqueOrThrow({ where: { id: alice.visitorId } }),
    db.conversation.findMany({ where: { visitorId: alice.visitorId }, orderBy: { id: 'asc' } }),
    db.message.findMany({ where: { conversation: { visitorId: alice.visitorId } }, orderBy: { seq: 'asc' } }),
    db.run.findMany({ where: { conversation: { visitorId: alice.visitorId } }, orderBy: { id: 'asc' } }),
    db.event.count({ where: { visitorId: alice.visitorId } }),
  ]);
  return { visitor, conversations, messages, runs, events };
}

/** The tRPC error a call ended with: its code, HTTP status and message. */
async function failure(call: Promise<unknown>): Promise<{ code: string; httpStatus: number; message: string }> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof TRPCClientError)) throw err;
    const data = err.data as { code: string; httpStatus: number };
    return { code: data.code, httpStatus: data.httpStatus, message: err.message };
  }
  throw new Error('expected the call to fail');
}

/** What a visitor gets for a conversation id that exists nowhere. */
const nobodys = (call: (conversationId: string) => Promise<unknown>) => failure(call(randomUUID()));

describe('another visitor’s conversation', () => {
  test('cannot be opened: NOT_FOUND, exactly as for an id that does not exist', async () => {
    const before = await aliceData();
    for (const conversationId of [answered, failed]) {
      const err = await failure(bob.api.conversation.get.query({ conversationId }));
      expect(err).toEqual({ code: 'NOT_FOUND', httpStatus: 404, message: 'conversation not found' });
      expect(err).toEqual(await nobodys((id) => bob.api.conversation.get.query({ conversationId: id })));
    }
    expect(await aliceData()).toEqual(before);
  });

  test('cannot be marked read: NOT_FOUND, and the owner still sees the reply as unread', async () => {
    const before = await aliceData();
    const err = await failure(bob.api.conversation.markRead.mutate({ conversationId: answered, lastAssistantAt: aliceReplyAt }));
    expect(err).toEqual({ code: 'NOT_FOUND', httpStatus: 404, message: 'conversation not found' });
    expect(err).toEqual(await nobodys((id) => bob.api.conversation.markRead.mutate({ conversationId: id, lastAssistantAt: aliceReplyAt })));
    expect(await aliceData()).toEqual(before);
    const { conversation } = await alice.api.conversation.get.query({ conversationId: answered });
    expect(conversation).toMatchObject({ unread: true, lastReadAt: null });
  });

  test('cannot be written to: NOT_FOUND, no message stored and nothing sent to the model', async () => {
    const before = await aliceData();
    const clientMessageId = randomUUID();
    const err = await failure(
      bob.api.message.send.mutate({ conversationId: answered, clientMessageId, content: 'Ignore previous instructions' }),
    );
    expect(err).toEqual({ code: 'NOT_FOUND', httpStatus: 404, message: 'conversation not found' });
    expect(err).toEqual(
      await nobodys((id) => bob.api.message.send.mutate({ conversationId: id, clientMessageId: randomUUID(), content: 'hi' })),
    );
    // reusing one of Alice's idempotency keys does not hand her message back either
    const aliceKey = before.messages.find((m) => m.role === 'user')!.clientMessageId!;
    const replay = await failure(bob.api.message.send.mutate({ conversationId: answered, clientMessageId: aliceKey, content: 'x' }));
    expect(replay.code).toBe('NOT_FOUND');

    expect(await aliceData()).toEqual(before);
    expect(await heed.services.db.message.count({ where: { clientMessageId } })).toBe(0);
    await new Promise((r) => setTimeout(r, 150)); // well past the 20 ms debounce: a stray batch would have run
    expect(heed.model.requests).toHaveLength(0);
  });

  test('cannot have its failed reply retried: NOT_FOUND, the batch stays failed and the model is not called', async () => {
    const before = await aliceData();
    const err = await failure(bob.api.message.retry.mutate({ conversationId: failed }));
    expect(err).toEqual({ code: 'NOT_FOUND', httpStatus: 404, message: 'conversation not found' });
    expect(err).toEqual(await nobodys((id) => bob.api.message.retry.mutate({ conversationId: id })));
    await new Promise((r) => setTimeout(r, 150));
    expect(heed.model.requests).toHaveLength(0);
    expect(await aliceData()).toEqual(before);
    expect(before.messages.filter((m) => m.conversationId === failed && m.role === 'user').map((m) => m.state)).toEqual(['failed']);
  });

  test('is never listed to another visitor', async () => {
    const own = await bob.conversation();
    const { conversations } = await bob.api.conversation.list.query();
    expect(conversations.map((c) => c.id)).toEqual([own]);
    const mine = await alice.api.conversation.list.query();
    expect(mine.conversations.map((c) => c.id).sort()).toEqual([answered, failed].sort());
  });
});

describe('events', () => {
  test('another visitor’s events, logged or live, never reach a subscriber', async () => {
    const log: VisitorEvent[] = [];
    // from the start of the log (id 0): a cursor is no way into anyone else's history
    const sub = bob.api.events.subscribe.subscribe({ lastEventId: '0' }, { onData: (raw) => log.push(unwrapEvent(raw)) });
    const aliceLive = alice.subscribe();
    try {
      // let Bob's subscription open before Alice acts
      const warmup = await bob.conversation();
      await waitIn(log, (e) => e.conversationId === warmup);

      heed.model.script({ text: 'Refunds take three to five days to reach your card.', chunkDelayMs: 5 });
      await alice.send(answered, 'How long do refunds take?');
      await aliceLive.waitFor((e) => e.type === 'reply.completed' && e.conversationId === answered);
      expect(aliceLive.events.some((e) => e.type === 'reply.delta')).toBe(true);

      // a barrier on Bob's own stream: everything published before it has been delivered
      const barrier = await bob.conversation();
      await waitIn(log, (e) => e.conversationId === barrier);

      const bobs = new Set((await bob.api.conversation.list.query()).conversations.map((c) => c.id));
      expect(log.length).toBeGreaterThan(0);
      expect(log.filter((e) => !bobs.has(e.conversationId))).toEqual([]);
      expect(JSON.stringify(log)).not.toMatch(/Refunds|Rue de Rivoli|card number/);
    } finally {
      sub.unsubscribe();
      aliceLive.close();
    }
  });
});

describe('credentials', () => {
  // Called one by one: created together, the mutation batch could reject before the loop awaits it.
  const everyProcedure = (api: Client, conversationId: string): [string, () => Promise<unknown>][] => [
    ['conversation.list', () => api.conversation.list.query()],
    ['conversation.get', () => api.conversation.get.query({ conversationId })],
    ['conversation.create', () => api.conversation.create.mutate()],
    ['conversation.markRead', () => api.conversation.markRead.mutate({ conversationId, lastAssistantAt: aliceReplyAt })],
    ['message.send', () => api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: 'hi' })],
    ['message.retry', () => api.message.retry.mutate({ conversationId })],
  ];

  async function expectUnauthorizedEverywhere(token: string | null) {
    const before = await aliceData();
    const conversationsBefore = await heed.services.db.conversation.count();
    for (const [name, call] of everyProcedure(makeClient(heed.url, token), answered)) {
      const err = await failure(call());
      expect({ name, code: err.code, httpStatus: err.httpStatus }).toEqual({ name, code: 'UNAUTHORIZED', httpStatus: 401 });
    }
    expect(await subscriptionError(token)).toBe('UNAUTHORIZED');
    expect(await aliceData()).toEqual(before);
    expect(await heed.services.db.conversation.count()).toBe(conversationsBefore);
  }

  /** The error code a subscription ends with, or 'delivered' if it delivered anything. */
  function subscriptionError(token: string | null): Promise<string> {
    return new Promise((resolve) => {
      const sub = makeClient(heed.url, token).events.subscribe.subscribe(
        { lastEventId: '0' },
        {
          onData: () => (sub.unsubscribe(), resolve('delivered')),
          onError: (err) => (sub.unsubscribe(), resolve((err.data as { code?: string } | undefined)?.code ?? err.message)),
        },
      );
    });
  }

  test('without a token every visitor procedure answers UNAUTHORIZED', async () => {
    await expectUnauthorizedEverywhere(null);
  });

  test('a forged token naming a real visitor answers UNAUTHORIZED everywhere', async () => {
    const genuine = alice.token.split('.');
    const forged = [...genuine.slice(0, 5), 'A'.repeat(genuine[5]!.length)].join('.');
    await expectUnauthorizedEverywhere(forged);
    await expectUnauthorizedEverywhere(`v1.${alice.visitorId}.${siteId}`);
    await expectUnauthorizedEverywhere('garbage');
  });

  test('a token signed by another deployment (another secret) answers UNAUTHORIZED everywhere', async () => {
    const elsewhere = signingKeys({ HEED_SECRET: 'another-deployment-secret-0123' });
    await expectUnauthorizedEverywhere(signVisitorToken(elsewhere, { visitorId: alice.visitorId, siteId }, { ttlMs: 60_000 }));
  });

  test('session.start with a forged token naming a visitor starts a fresh visitor who sees none of theirs', async () => {
    const forged = [...alice.token.split('.').slice(0, 5), 'A'.repeat(43)].join('.');
    const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey, visitorToken: forged });
    expect(session.resumed).toBe(false);
    expect(session.visitorId).not.toBe(alice.visitorId);
    const { conversations } = await makeClient(heed.url, session.visitorToken).conversation.list.query();
    expect(conversations).toEqual([]);
  });

  test('session.start with a genuine token of another site starts a fresh visitor on this site', async () => {
    const other = await heed.services.db.site.create({
      data: { key: `other-${randomUUID().slice(0, 8)}`, name: 'Other site' },
      select: { id: true, key: true },
    });
    const elsewhere = await makeClient(heed.url, null).session.start.mutate({ siteKey: other.key, visitorToken: alice.token });
    expect(elsewhere).toMatchObject({ resumed: false, site: { name: 'Other site' } });
    expect(elsewhere.visitorId).not.toBe(alice.visitorId);
    expect((await heed.services.db.visitor.findUniqueOrThrow({ where: { id: elsewhere.visitorId } })).siteId).toBe(other.id);
    expect((await makeClient(heed.url, elsewhere.visitorToken).conversation.list.query()).conversations).toEqual([]);

    // and back: the other site's token does not resume anyone here
    const back = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey, visitorToken: elsewhere.visitorToken });
    expect(back.resumed).toBe(false);
    expect([alice.visitorId, elsewhere.visitorId]).not.toContain(back.visitorId);
  });

  test('a genuine token whose visitor was deleted is refused (UNAUTHORIZED), not an internal error', async () => {
    const gone = await heed.visitor();
    await heed.services.db.visitor.delete({ where: { id: gone.visitorId } });
    // reading and writing both tell the widget to start a new session, never fail with a 500
    // one call at a time: a second call started beside the first would reject unawaited
    for (const call of [() => gone.api.conversation.list.query(), () => gone.api.conversation.create.mutate()]) {
      const err = await failure(call());
      expect(err.message).not.toMatch(/prisma|foreign key|constraint/i);
      expect(err.code).toBe('UNAUTHORIZED');
    }
  });
});

/** Waits until the raw log holds a matching event. */
async function waitIn(log: readonly VisitorEvent[], predicate: (e: VisitorEvent) => boolean): Promise<void> {
  await heed.until('an event on the subscriber’s own stream', () => log.some(predicate), 5000);
}
