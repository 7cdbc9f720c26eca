import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sendMessage } from '../../api/src/conversations/send-message.ts';
import { TestHeed, type TestVisitor } from '../support/harness.ts';

/**
 * Sends that arrive together commit together (send-group.ts: one transaction, one statement for
 * every row). Each must still get exactly its own row, title, view and refusal.
 */
let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: { PENDING_MAX_MESSAGES: '3' } });
});
afterAll(() => heed?.stop());

/** The reason a tRPC call was refused with, as the widget reads it. */
async function refusal(call: Promise<unknown>): Promise<{ code: string; reason: string | null }> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof TRPCClientError)) throw err;
    return { code: err.data?.code, reason: err.data?.reason ?? null };
  }
  throw new Error('the call was not refused');
}

test('forty sends at once in forty conversations: each stores its own row once, with its own title and view, and one full batch refuses only its own send', async () => {
  const visitors: TestVisitor[] = [];
  for (let i = 0; i < 8; i++) visitors.push(await heed.visitor());
  const targets = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => ({ visitor: visitors[i % 8]!, conversationId: await visitors[i % 8]!.conversation(), i })),
  );
  // one conversation already holds the most it may wait on
  const full = targets[17]!;
  for (const n of [1, 2, 3]) await full.visitor.send(full.conversationId, `earlier ${n}`);

  // in one tick, in-process: the first sends start alone and the rest wait and go as groups
  const outcomes = await Promise.allSettled(
    targets.map((t) =>
      sendMessage(heed.services, {
        visitorId: t.visitor.visitorId,
        conversationId: t.conversationId,
        clientMessageId: `burst-${t.i}`,
        content: `Question number ${t.i}, please`,
      }),
    ),
  );

  const db = heed.services.db;
  for (const [i, t] of targets.entries()) {
    const outcome = outcomes[i]!;
    if (t === full) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ kind: 'too_many_requests', reason: 'pending_batch_full' });
      continue;
    }
    expect(outcome.status).toBe('fulfilled');
    const view = (outcome as PromiseFulfilledResult<{ conversationId: string; content: string; clientMessageId: string }>).value;
    expect(view).toMatchObject({
      conversationId: t.conversationId,
      content: `Question number ${t.i}, please`,
      clientMessageId: `burst-${t.i}`,
    });
    const conversation = await db.conversation.findUniqueOrThrow({
      where: { id: t.conversationId },
      select: { title: true, titleSource: true, messages: { select: { content: true } } },
    });
    expect(conversation).toEqual({
      title: `Question number ${t.i}, please`,
      titleSource: 'first_message',
      messages: [{ content: `Question number ${t.i}, please` }],
    });
  }
  expect(await db.message.count({ where: { conversationId: full.conversationId } })).toBe(3);

  // each stored send's view and conversation view went to its own visitor's log, once
  for (const v of visitors) {
    const mine = targets
      .filter((t) => t.visitor === v && t !== full)
      .map((t) => t.conversationId)
      .sort();
    const created = await db.event.findMany({
      where: {
        visitorId: v.visitorId,
        type: 'message.created',
        payload: { path: ['message', 'clientMessageId'], string_starts_with: 'burst-' },
      },
    });
    expect(created.map((e) => e.conversationId).sort()).toEqual(mine);
  }

  // the same forty again: retries return the stored rows and store nothing new
  const again = await Promise.allSettled(
    targets.map((t) =>
      sendMessage(heed.services, {
        visitorId: t.visitor.visitorId,
        conversationId: t.conversationId,
        clientMessageId: `burst-${t.i}`,
        content: `Question number ${t.i}, please`,
      }),
    ),
  );
  for (const [i, t] of targets.entries()) if (t !== full) expect(again[i]).toEqual(outcomes[i]);
  expect(await db.message.count({ where: { clientMessageId: { startsWith: 'burst-' } } })).toBe(39);
});

test('two sends of one conversation in one burst commit one after the other, in the order sent', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const sent = await Promise.all(
    ['first', 'second'].map((content) =>
      sendMessage(heed.services, { visitorId: visitor.visitorId, conversationId, clientMessageId: content, content }),
    ),
  );
  expect(BigInt(sent[0]!.seq) < BigInt(sent[1]!.seq)).toBe(true);
  const conversation = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { title: true } });
  expect(conversation.title).toBe('first');
});

/** Groups committed so far (the send-group histogram's count). */
const groupsCommitted = async () =>
  (await heed.services.metrics.sendGroup.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;

test("a burst of one conversation's sends commits up to four to a group, in the order sent, and the pending cap counts those before it in the same group", async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const before = await groupsCommitted();
  // the first goes alone at once; the other five wait for it, then go four, then one
  const outcomes = await Promise.allSettled(
    ['one', 'two', 'three', 'four', 'five', 'six'].map((content) =>
      sendMessage(heed.services, { visitorId: visitor.visitorId, conversationId, clientMessageId: content, content }),
    ),
  );
  expect(await groupsCommitted()).toBe(before + 3);
  // PENDING_MAX_MESSAGES is 3 here: the first three are stored, in order; the rest are refused
  const stored = outcomes.slice(0, 3).map((o) => (o as PromiseFulfilledResult<{ content: string; seq: string }>).value);
  expect(stored.map((m) => m.content)).toEqual(['one', 'two', 'three']);
  expect(BigInt(stored[0]!.seq) < BigInt(stored[1]!.seq) && BigInt(stored[1]!.seq) < BigInt(stored[2]!.seq)).toBe(true);
  for (const o of outcomes.slice(3))
    expect((o as PromiseRejectedResult).reason).toMatchObject({ kind: 'too_many_requests', reason: 'pending_batch_full' });
  const rows = await heed.services.db.message.findMany({ where: { conversationId }, orderBy: { seq: 'asc' }, select: { content: true } });
  expect(rows.map((r) => r.content)).toEqual(['one', 'two', 'three']);
});

test("a send to another visitor's conversation, in the same group as the owner's own sends, is not found and stores nothing", async () => {
  const owner = await heed.visitor();
  const intruder = await heed.visitor();
  const conversationId = await owner.conversation();
  const send = (visitorId: string, content: string) =>
    sendMessage(heed.services, { visitorId, conversationId, clientMessageId: content, content });
  // the first goes alone; the intruder's send and the owner's second wait for it and go together
  const outcomes = await Promise.allSettled([
    send(owner.visitorId, 'mine'),
    send(intruder.visitorId, 'not yours'),
    send(owner.visitorId, 'mine too'),
  ]);
  expect(outcomes[0]!.status).toBe('fulfilled');
  expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ kind: 'not_found', message: 'conversation not found' });
  expect(outcomes[2]!.status).toBe('fulfilled');
  const rows = await heed.services.db.message.findMany({
    where: { conversationId },
    orderBy: { seq: 'asc' },
    select: { content: true, visitorId: true },
  });
  expect(rows).toEqual([
    { content: 'mine', visitorId: owner.visitorId },
    { content: 'mine too', visitorId: owner.visitorId },
  ]);
});

test("a send to someone else's conversation is not found; a send by a visitor deleted since its token was signed is visitor_token_invalid", async () => {
  const alice = await heed.visitor();
  const bob = await heed.visitor();
  const bobs = await bob.conversation();
  expect(await refusal(alice.send(bobs, 'let me in'))).toEqual({ code: 'NOT_FOUND', reason: null });

  const alices = await alice.conversation();
  await heed.services.db.visitor.delete({ where: { id: alice.visitorId } });
  expect(await refusal(alice.send(alices, 'still there?'))).toEqual({ code: 'UNAUTHORIZED', reason: 'visitor_token_invalid' });
  expect(await heed.services.db.message.count({ where: { conversationId: bobs } })).toBe(0);
});

test('a conversation locked by another transaction holds up only its own send: the rest of its group commits, and it follows once the lock is gone', async () => {
  const visitor = await heed.visitor();
  const [a, b, c, x, y, z] = await Promise.all(Array.from({ length: 6 }, () => visitor.conversation()));
  let unlock!: () => void;
  const locked = new Promise<void>((resolve) => {
    void heed.services.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM "Conversation" WHERE id = ${x}::uuid FOR UPDATE`;
        resolve();
        // a worker storing a reply holds its conversation like this
        await new Promise<void>((r) => (unlock = r));
      },
      { timeout: 20_000 },
    );
  });
  await locked;
  const send = (conversationId: string, content: string) =>
    sendMessage(heed.services, { visitorId: visitor.visitorId, conversationId, clientMessageId: content, content });
  // three sends take the three idle slots alone; x, y and z then go as one group
  const alone = [send(a!, 'a'), send(b!, 'b'), send(c!, 'c')];
  let xStored = false;
  const xs = send(x!, 'x').then((m) => ((xStored = true), m));
  const others = await Promise.all([send(y!, 'y'), send(z!, 'z'), ...alone]);
  expect(others.map((m) => m.content)).toEqual(['y', 'z', 'a', 'b', 'c']);
  expect(xStored).toBe(false);
  unlock();
  expect((await xs).content).toBe('x');
  expect(await heed.services.db.message.count({ where: { conversationId: x! } })).toBe(1);
});
