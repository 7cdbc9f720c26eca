import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ConversationItem } from '../../api/src/console/conversations/item.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { titleAnswer } from '../support/titles.ts';
import { visitorOf } from '../handoff/helpers.ts';
import { revokeOperatorSession, sessionIdOf } from '../../api/src/operators/operator-sessions.ts';

let heed: TestHeed;
let agent: TestOperator;
beforeAll(async () => {
  // a debounce long enough that three sends make one batch even on a busy machine
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1', DEBOUNCE_MS: '1500', LEASE_MS: '10000' } });
  // an agent may do everything on conversations (owners too): the live list, transcripts, retry, rename, retitle
  agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

/** The console's live list as the console page holds it: the latest item per conversation, and every change seen. */
function watch(op: TestOperator, input: { siteId?: string; lastEventId?: string | null } = {}) {
  const changes: { id: string; item: ConversationItem }[] = [];
  const errors: unknown[] = [];
  const sub = op.api.console.conversations.changes.subscribe(input, {
    onData: (raw) => {
      const { id, data } = raw as unknown as { id: string; data: { type: 'upsert'; item: ConversationItem } };
      changes.push({ id, item: data.item });
    },
    onError: (err) => errors.push(err),
  });
  const states = (conversationId: string) =>
    changes.filter((c) => c.item.id === conversationId).map((c) => (c.item.failed ? 'failed' : c.item.attention));
  const until = (what: string, conversationId: string, check: (item: ConversationItem) => boolean) =>
    heed.until(
      what,
      () =>
        changes.some((c) => c.item.id === conversationId && check(c.item)) &&
        changes.filter((c) => c.item.id === conversationId).at(-1)!.item,
      10_000,
    );
  return { changes, errors, states, until, close: () => sub.unsubscribe() };
}

test('the live list delivers a new visitor conversation and each change of its state: live, unviewed after the reply, default once read, failed, and answered again after a retry from the console', async () => {
  // from the log's start: a catch-up re-sends what changed lately, so nothing made after this line is missed
  const live = watch(agent, { lastEventId: '0' });
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await live.until('the new conversation', conversationId, (i) => i.attention === 'default' && i.messageCount === 0);

  heed.model.script({ text: 'We ship to Norway, yes.' });
  await visitor.send(conversationId, 'Do you ship to Norway?');
  await live.until('live', conversationId, (i) => i.attention === 'live' && i.title === 'Do you ship to Norway?');
  const replied = await live.until('the reply', conversationId, (i) => i.attention === 'unviewed');
  expect(replied).toMatchObject({ excerpt: 'We ship to Norway, yes.', messageCount: 2, failed: false, siteName: 'Test site' });

  await agent.api.console.conversations.markRead.mutate({ conversationId });
  await live.until('read by this operator', conversationId, (i) => i.attention === 'default');

  heed.model.script({ error: { status: 500 } });
  await visitor.send(conversationId, 'And to Iceland?');
  await live.until('failed', conversationId, (i) => i.failed && i.attention === 'unviewed');

  heed.model.script({ text: 'Iceland too.' });
  expect(await agent.api.console.conversations.retry.mutate({ conversationId })).toEqual({ requeued: 1 });
  const answered = await live.until('answered after the retry', conversationId, (i) => !i.failed && i.excerpt === 'Iceland too.');
  expect(answered.attention).toBe('unviewed');
  expect(await agent.api.console.conversations.retry.mutate({ conversationId })).toEqual({ requeued: 0 });
  // live → unviewed → default → live → failed → live → unviewed, with no state skipped
  const seen = live.states(conversationId).filter((s, i, all) => s !== all[i - 1]);
  expect(seen).toEqual(['default', 'live', 'unviewed', 'default', 'live', 'failed', 'live', 'unviewed']);
  expect(live.errors).toEqual([]);
  live.close();
});

test('the live list is scoped to a site when asked, and a reconnect with lastEventId re-sends what changed meanwhile', async () => {
  const other = await heed.services.db.site.create({ data: { key: 'other-site', name: 'Other site' }, select: { id: true } });
  const site = await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const scoped = watch(agent, { siteId: other.id, lastEventId: '0' });
  const everything = watch(agent, { lastEventId: '0' });
  const visitor = await heed.visitor();
  const first = await visitor.conversation();
  await everything.until('the conversation', first, () => true);
  const resumeFrom = everything.changes.at(-1)!.id;
  everything.close();

  // while nobody listens: a new conversation and a rename
  const second = await visitor.conversation();
  await agent.api.console.conversations.rename.mutate({ conversationId: first, title: 'Shipping to Norway', pin: false });

  const resumed = watch(agent, { siteId: site.id, lastEventId: resumeFrom });
  await resumed.until('the missed conversation', second, () => true);
  await resumed.until('the missed rename', first, (i) => i.title === 'Shipping to Norway' && i.titleSource === 'manual');
  // the scoped stream carries the other site's conversation, made after all of the above, and nothing else
  const elsewhere = await (await visitorOf(heed, 'other-site')).conversation();
  await scoped.until('the other site’s conversation', elsewhere, () => true);
  expect(new Set(scoped.changes.map((c) => c.item.id))).toEqual(new Set([elsewhere]));
  resumed.close();
  scoped.close();
});

test('a signed-out client gets no live list', async () => {
  const { consoleClient } = await import('../support/console.ts');
  const errors: unknown[] = [];
  const sub = consoleClient(heed.url, null).console.conversations.changes.subscribe(
    {},
    { onData: () => {}, onError: (err) => errors.push(err) },
  );
  await heed.until('the refusal', () => errors.length > 0, 5000);
  sub.unsubscribe();
  expect(errors[0]).toMatchObject({ data: { code: 'UNAUTHORIZED', reason: 'console_signed_out' } });
});

test('the transcript of three quick sends shows one run that claimed all three, with its model, tokens and timings, and the title history', async () => {
  await heed.titlePass(); // earlier tests' title requests, so this test's pass sees only its own
  const visitor = await heed.visitor('America/New_York');
  const conversationId = await visitor.conversation();
  heed.model.script({ text: 'Here is everything you asked.', usage: { prompt_tokens: 321, completion_tokens: 17 } });
  await visitor.send(conversationId, 'Hi!');
  await visitor.send(conversationId, 'Do you have the walnut shelf?');
  await visitor.send(conversationId, 'In 80 cm?');
  await heed.until(
    'the reply',
    async () => (await heed.services.db.run.findFirst({ where: { conversationId, status: 'completed' } })) !== null,
  );

  const t = await agent.api.console.conversations.transcript.query({ conversationId });
  expect(t.conversation).toMatchObject({ id: conversationId, visitorTimeZone: 'America/New_York', attention: 'unviewed', messageCount: 4 });
  expect(t.messages.map((m) => [m.role, m.content, m.state])).toEqual([
    ['user', 'Hi!', 'answered'],
    ['user', 'Do you have the walnut shelf?', 'answered'],
    ['user', 'In 80 cm?', 'answered'],
    ['assistant', 'Here is everything you asked.', null],
  ]);
  expect(t.runs).toHaveLength(1);
  const [run] = t.runs;
  expect(run).toMatchObject({
    status: 'completed',
    model: 'test-model',
    attempts: 1,
    promptTokens: 321,
    completionTokens: 17,
    error: null,
  });
  expect(run!.claimedMessageIds).toEqual(t.messages.slice(0, 3).map((m) => m.id));
  expect(t.messages.every((m) => m.runId === run!.id)).toBe(true);
  expect(run!.costUsd).toBeGreaterThan(0);
  const [started, firstToken, ended] = [run!.startedAt, run!.firstTokenAt!, run!.endedAt!].map(Date.parse);
  expect(firstToken).toBeGreaterThanOrEqual(started!);
  expect(ended).toBeGreaterThanOrEqual(firstToken!);

  // fallback → generated → fixed (pinned by an operator), with the title check's outcome and cost
  heed.model.script(titleAnswer('Walnut shelf in 80 cm'));
  await heed.titlePass();
  await agent.api.console.conversations.rename.mutate({ conversationId, title: 'Walnut shelf (VIP)', pin: true });
  const after = await agent.api.console.conversations.transcript.query({ conversationId });
  expect(after.titleHistory.map((h) => [h.source, h.title])).toEqual([
    ['first_message', 'Hi!'],
    ['generated', 'Walnut shelf in 80 cm'],
    ['fixed', 'Walnut shelf (VIP)'],
  ]);
  expect(after.titleHistory.every((h) => h.at !== null)).toBe(true);
  expect(after.titleChecks).toEqual([
    expect.objectContaining({ outcome: 'changed', model: expect.any(String), costUsd: expect.any(Number) }),
  ]);
  await expect(agent.api.console.conversations.retitle.mutate({ conversationId })).rejects.toMatchObject({
    data: { code: 'CONFLICT', reason: 'title_not_replaceable' },
  });
});

test('retitle asks the title pass again at once, even for a title it gave up on', async () => {
  await heed.titlePass();
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.script({ text: 'Sure.' });
  await visitor.send(conversationId, 'Need help with returns');
  await heed.until(
    'the reply',
    async () => (await heed.services.db.run.findFirst({ where: { conversationId, status: 'completed' } })) !== null,
  );
  await heed.services.db.conversation.update({
    where: { id: conversationId },
    data: { titleState: 'failed', titleRequestedAt: null, titleAttempts: 5 },
  });
  expect(await agent.api.console.conversations.retitle.mutate({ conversationId })).toEqual({ requested: true });
  heed.model.script(titleAnswer('Returns help'));
  await heed.titlePass();
  const t = await agent.api.console.conversations.transcript.query({ conversationId });
  expect(t.conversation).toMatchObject({ title: 'Returns help', titleSource: 'generated' });
});

test("a site's model, instructions and reply token cap reach the model on the next run, without a restart, and the run records the model", async () => {
  const { db, sites } = heed.services;
  await db.site.update({
    where: { key: heed.siteKey },
    data: {
      model: 'gpt-4o-mini',
      assistantName: 'Shelfie',
      systemPrompt: 'Always answer as {assistantName}, the owl of {siteName}; keep {unknown} as typed.',
      replyMaxTokens: 123,
    },
  });
  sites.clear(); // what console.sites.update does
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.script({ text: 'Hoot! Yes.' });
  await visitor.send(conversationId, 'Are you open?');
  const [request] = await heed.model.waitForRequests(1);
  expect(request!.body.model).toBe('gpt-4o-mini');
  expect(request!.body.max_tokens).toBe(123);
  const system = request!.body.messages![0]!;
  expect(system.role).toBe('system');
  // the model knows whose assistant it is, and the owner's placeholders name them
  expect(system.content).toMatch(/^You are Shelfie, the assistant of the website Test site\.\n/);
  expect(system.content).toContain('Always answer as Shelfie, the owl of Test site; keep {unknown} as typed.');
  await heed.until('the reply', async () => (await db.run.findFirst({ where: { conversationId, status: 'completed' } })) !== null);
  const t = await agent.api.console.conversations.transcript.query({ conversationId });
  expect(t.runs[0]!.model).toBe('gpt-4o-mini');

  // back to the deployment's settings
  await db.site.update({
    where: { key: heed.siteKey },
    data: { model: null, assistantName: null, systemPrompt: null, replyMaxTokens: null },
  });
  sites.clear();
  heed.model.reset();
  heed.model.script({ text: 'Yes.' });
  await visitor.send(conversationId, 'Tomorrow too?');
  const [next] = await heed.model.waitForRequests(1);
  expect(next!.body.model).toBe('test-model');
  expect(next!.body.max_tokens).toBe(heed.config.MODEL_MAX_TOKENS);
  expect(next!.body.messages![0]!.content).not.toContain('Shelfie');
});

test('a stream lives no longer than its session: once the operator signs out elsewhere, it hears nothing more and ends', async () => {
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  const heard: string[] = [];
  let ended = false;
  const sub = owner.api.console.conversations.changes.subscribe(
    { lastEventId: '0' },
    {
      onData: (raw) => heard.push((raw as unknown as { data: { item: ConversationItem } }).data.item.id),
      onComplete: () => (ended = true),
      onError: () => (ended = true),
    },
  );
  const before = await (await heed.visitor()).conversation();
  await heed.until('the first conversation heard', () => heard.includes(before));

  await revokeOperatorSession(heed.services.db, sessionIdOf(owner.cookie.split('=')[1]!));
  const after = await (await heed.visitor()).conversation();
  await heed.until('the stream ended', () => ended);
  expect(heard).not.toContain(after);
  sub.unsubscribe();
});
