import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { makeClient, TestHeed } from '../support/harness.ts';

const ADMIN_TOKEN = 'operator-token-for-tests-0123456789';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { ADMIN_TOKEN } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

async function codeOf(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return 'no error';
  } catch (err) {
    return err instanceof TRPCClientError ? (err.data as { code?: string } | undefined)?.code : String(err);
  }
}

test('the operator API refuses requests without the operator token, including visitors’ tokens', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  for (const token of [null, 'wrong-operator-token-0123456789', visitor.token]) {
    const client = makeClient(heed.url, token);
    expect(await codeOf(client.admin.titleChecks.query())).toBe('UNAUTHORIZED');
    expect(await codeOf(client.admin.renameConversation.mutate({ conversationId, title: 'Hijacked' }))).toBe('UNAUTHORIZED');
  }
  expect((await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).title).toBeNull();
});

test('an operator renames any conversation: the manual title wins and the visitor sees it live', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, 'my order never arrived');
  const operator = makeClient(heed.url, ADMIN_TOKEN);
  const renamed = await operator.admin.renameConversation.mutate({ conversationId, title: '  Missing   order #1042 ' });
  expect(renamed).toMatchObject({ title: 'Missing order #1042', titleSource: 'manual' });
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.title === 'Missing order #1042');
  // a later title pass leaves it alone
  await events.waitFor((e) => e.type === 'reply.completed');
  const before = heed.model.requests.length;
  await heed.titlePass();
  expect(heed.model.requests.length).toBe(before);
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation.title).toBe('Missing order #1042');
  expect(await codeOf(operator.admin.renameConversation.mutate({ conversationId: crypto.randomUUID(), title: 'x' }))).toBe('NOT_FOUND');
  events.close();
});

test('operators read what titles cost from the audit, which holds no text', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  const events = visitor.subscribe();
  await visitor.send(conversationId, 'Can I return shoes after 30 days?');
  await events.waitFor((e) => e.type === 'reply.completed');
  heed.model.script({ text: JSON.stringify({ title: 'Returning shoes', changed: true }) });
  await heed.titlePass();
  const { checks, totals } = await makeClient(heed.url, ADMIN_TOKEN).admin.titleChecks.query();
  const mine = checks.find((c) => c.conversationId === conversationId);
  expect(mine).toMatchObject({ outcome: 'changed', model: expect.any(String) });
  expect(totals.checks).toBeGreaterThanOrEqual(1);
  expect(totals.byOutcome.changed).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(checks)).not.toMatch(/shoes|Returning/i);
  events.close();
});
