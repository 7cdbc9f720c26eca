import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { apiKeyHash } from '../../api/src/proactive/api-keys.ts';

let heed: TestHeed;
let siteId: string;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
  owner = await signedInOperator(heed.services, heed.url);
});
afterAll(() => heed?.stop());

const db = () => heed.services.db;

/** A visitor whose host verified them as `userId` (identity verification has its own tests). */
async function identified(userId: string): Promise<TestVisitor> {
  const v = await heed.visitor();
  await db().visitor.update({ where: { id: v.visitorId }, data: { externalId: userId, identifiedAt: new Date() } });
  return v;
}

function post(key: string | null, body: unknown, siteKey = heed.siteKey) {
  return fetch(`${heed.url}/api/v1/sites/${encodeURIComponent(siteKey)}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

test('a site API key is shown once, kept as a hash with its prefix, listed without the key and revocable', async () => {
  const created = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Billing server' });
  expect(created.key).toMatch(/^heed_sk_[A-Za-z0-9_-]{43}$/);
  expect(created.prefix).toBe(created.key.slice(0, 12));
  const row = await db().siteApiKey.findUniqueOrThrow({ where: { id: created.id } });
  expect(row.hash).toBe(apiKeyHash(created.key));
  expect(JSON.stringify(row)).not.toContain(created.key);
  const listed = await owner.api.console.proactive.apiKeys.list.query({ siteId });
  expect(listed.find((k) => k.id === created.id)).toEqual({
    id: created.id,
    name: 'Billing server',
    prefix: created.prefix,
    createdAt: created.createdAt,
    lastUsedAt: null,
    revokedAt: null,
  });
  expect(JSON.stringify(listed)).not.toContain(created.key);

  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  await expect(agent.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'x' })).rejects.toMatchObject({
    data: { reason: 'owner_only' },
  });
  await expect(agent.api.console.proactive.apiKeys.revoke.mutate({ siteId, id: created.id })).rejects.toMatchObject({
    data: { reason: 'owner_only' },
  });

  expect(await owner.api.console.proactive.apiKeys.revoke.mutate({ siteId, id: created.id })).toEqual({ ok: true });
  const v = await identified('user-revoked');
  expect((await post(created.key, { userId: 'user-revoked', text: 'hello' })).status).toBe(401);
  expect(await db().message.count({ where: { visitorId: v.visitorId } })).toBe(0);
});

test('a server message reaches an identified user through the unread write, labelled with the site name, and is audited', async () => {
  const { key, id } = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'CRM' });
  const v = await identified('user-42');
  const res = await post(key, { userId: 'user-42', text: '  Your invoice #881 is ready.\nDownload it from your account.  ' });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { conversationId: string; messageId: string };
  const message = await db().message.findUniqueOrThrow({ where: { id: body.messageId } });
  expect(message).toMatchObject({
    conversationId: body.conversationId,
    role: 'assistant',
    content: 'Your invoice #881 is ready.\nDownload it from your account.',
    provenance: 'server',
    provenanceLabel: 'Test site',
  });
  const { conversations } = await v.api.conversation.list.query();
  expect(conversations).toHaveLength(1);
  expect(conversations[0]).toMatchObject({
    id: body.conversationId,
    unread: true,
    attention: 'unviewed',
    excerpt: 'Your invoice #881 is ready.',
  });
  const thread = await v.api.conversation.get.query({ conversationId: body.conversationId });
  expect(thread.messages.at(-1)).toMatchObject({ provenance: 'server', provenanceLabel: 'Test site' });
  expect(await db().proactiveRequest.findFirstOrThrow({ where: { messageId: body.messageId } })).toMatchObject({
    kind: 'server',
    status: 'delivered',
    visitorId: v.visitorId,
  });
  expect((await db().siteApiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();

  // the budget never refuses it (the site's server decided): a second one in a row is delivered too,
  // into the most recently active conversation, or into the one named
  expect((await post(key, { userId: 'user-42', text: 'Reminder: invoice #881.' })).status).toBe(201);
  const second = await v.conversation();
  const named = await post(key, { userId: 'user-42', text: 'About your ticket', conversationId: second });
  expect(((await named.json()) as { conversationId: string }).conversationId).toBe(second);
  // ... but they count for the budget: an intent now is refused (three unsolicited today, K = 2)
  await db().intentRule.create({
    data: { siteId, name: 'viewed_invoice', label: 'viewed an invoice', fixedMessage: 'Questions about it?' },
  });
  expect(await v.api.intent.fire.mutate({ name: 'viewed_invoice' })).toEqual({ status: 'ignored' });
  const stats = await owner.api.console.proactive.stats.query({ siteId });
  expect(stats.delivered).toContainEqual({ kind: 'server', count: 3 });
  expect(stats.refused).toContainEqual({ reason: 'daily_budget', count: 1 });
});

test('refusals: 401 for a wrong, missing or other site’s key (alike), 404 for a user without a verified session, 400 for a bad body', async () => {
  const { key } = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Ops' });
  const otherSite = await db().site.create({ data: { key: `other-${Date.now()}`, name: 'Other' } });
  const otherKey = (await owner.api.console.proactive.apiKeys.create.mutate({ siteId: otherSite.id, name: 'Other' })).key;
  await identified('user-7');
  const anonymous = await heed.visitor();

  for (const res of [
    await post(null, { userId: 'user-7', text: 'x' }),
    await post(`${key}x`, { userId: 'user-7', text: 'x' }),
    await post(otherKey, { userId: 'user-7', text: 'x' }),
    await post('nonsense', { userId: 'user-7', text: 'x' }),
  ]) {
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'unauthorized' });
  }
  expect((await post(key, { userId: 'nobody', text: 'hi' })).status).toBe(404);
  // an anonymous visitor is not a user id, whatever its external id says
  await db().visitor.update({ where: { id: anonymous.visitorId }, data: { externalId: 'user-unverified' } });
  expect((await post(key, { userId: 'user-unverified', text: 'hi' })).status).toBe(404);
  const foreign = await (await heed.visitor()).conversation();
  expect((await post(key, { userId: 'user-7', text: 'hi', conversationId: foreign })).status).toBe(404);

  const bad = [
    { userId: 'user-7', text: '   ' },
    { userId: 'user-7', text: 'x'.repeat(2001) },
    { userId: 'u'.repeat(201), text: 'hi' },
    { userId: 'user\u00007', text: 'hi' },
    { userId: 'user\n7', text: 'hi' },
    { userId: 'user-7', text: 'hi', extra: 1 },
    { userId: 'user-7', text: 'hi', conversationId: 'nope' },
  ];
  for (const body of bad) expect((await post(key, body)).status).toBe(400);
  expect((await post(key, '{not json')).status).toBe(400);
  expect((await post(key, JSON.stringify({ userId: 'user-7', text: 'x'.repeat(20_000) }))).status).toBe(413);
  const get = await fetch(`${heed.url}/api/v1/sites/${heed.siteKey}/messages`, { headers: { authorization: `Bearer ${key}` } });
  expect(get.status).toBe(405);
});

test('console.proactive.intentRules: owners save and remove; exactly one of instruction or fixed message; names unique per site', async () => {
  const rules = owner.api.console.proactive.intentRules;
  const saved = await rules.save.mutate({
    siteId,
    name: 'viewed_pricing',
    label: 'viewed Pricing',
    instruction: ' Offer help with plans. ',
    fixedMessage: null,
    enabled: true,
  });
  expect(saved).toMatchObject({
    name: 'viewed_pricing',
    label: 'viewed Pricing',
    instruction: 'Offer help with plans.',
    fixedMessage: null,
    enabled: true,
  });
  const changed = await rules.save.mutate({
    siteId,
    id: saved.id,
    name: 'viewed_pricing',
    label: 'viewed Pricing',
    instruction: null,
    fixedMessage: 'Need help?',
    enabled: false,
  });
  expect(changed).toMatchObject({ id: saved.id, instruction: null, fixedMessage: 'Need help?', enabled: false });
  expect((await rules.list.query({ siteId })).map((r) => r.name)).toContain('viewed_pricing');

  await expect(
    rules.save.mutate({ siteId, name: 'viewed_pricing', label: 'again', instruction: 'x', fixedMessage: null, enabled: true }),
  ).rejects.toMatchObject({ data: { reason: 'intent_name_taken' } });
  await expect(
    rules.save.mutate({ siteId, name: 'both', label: 'b', instruction: 'x', fixedMessage: 'y', enabled: true }),
  ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  await expect(
    rules.save.mutate({ siteId, name: 'neither', label: 'n', instruction: null, fixedMessage: null, enabled: true }),
  ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  await expect(
    rules.save.mutate({ siteId, name: 'bad name!', label: 'n', instruction: 'x', fixedMessage: null, enabled: true }),
  ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });

  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });
  await expect(
    agent.api.console.proactive.intentRules.save.mutate({
      siteId,
      name: 'x',
      label: 'x',
      instruction: 'x',
      fixedMessage: null,
      enabled: true,
    }),
  ).rejects.toMatchObject({ data: { reason: 'owner_only' } });
  expect((await agent.api.console.proactive.intentRules.list.query({ siteId })).length).toBeGreaterThan(0);
  // an agent of another site does not see this one
  const other = await db().site.create({ data: { key: `elsewhere-${Date.now()}`, name: 'Elsewhere' } });
  await db().operator.update({ where: { id: agent.id }, data: { allSites: false, siteIds: [other.id] } });
  await expect(agent.api.console.proactive.intentRules.list.query({ siteId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  await expect(agent.api.console.proactive.stats.query({ siteId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

  expect(await rules.remove.mutate({ siteId, id: saved.id })).toEqual({ ok: true });
  await expect(rules.remove.mutate({ siteId, id: saved.id })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
});

test('each key is rate-limited on its own: past 60 a minute it gets 429 with Retry-After', async () => {
  const { key } = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Loop' });
  const other = (await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Calm' })).key;
  // invalid bodies are cheap and count all the same (the limit comes before the body is read)
  const statuses = [];
  for (let i = 0; i < 60; i++) statuses.push((await post(key, { userId: '' })).status);
  expect(new Set(statuses)).toEqual(new Set([400]));
  const over = await post(key, { userId: '' });
  expect(over.status).toBe(429);
  expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await post(other, { userId: '' })).status).toBe(400);
});

test('a lone surrogate in a server message (legal in JSON, not in UTF-8) is delivered as U+FFFD, in the message and its event', async () => {
  const { key } = await owner.api.console.proactive.apiKeys.create.mutate({ siteId, name: 'Broken text' });
  await identified('user-surrogate');
  const res = await post(key, { userId: 'user-surrogate', text: 'Invoice \ud83d ready' });
  expect(res.status).toBe(201);
  const { messageId, conversationId } = (await res.json()) as { conversationId: string; messageId: string };
  expect((await db().message.findUniqueOrThrow({ where: { id: messageId } })).content).toBe('Invoice \uFFFD ready');
  const event = await db().event.findFirstOrThrow({ where: { conversationId, type: 'message.created' }, orderBy: { id: 'desc' } });
  expect((event.payload as { message: { content: string } }).message.content).toBe('Invoice \uFFFD ready');
});
