import { afterAll, beforeAll, expect, test } from 'vitest';
import { handoffOffered } from '../../api/src/handoff/handoff-offer.ts';
import type { RecordedRequest } from '../../api/src/model-server/types.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';

let heed: TestHeed;
let ana: TestOperator;
let siteId: string;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1' } });
  ana = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana' });
  ({ id: siteId } = await heed.services.db.site.update({
    where: { key: heed.siteKey },
    data: { handoffEnabled: true },
    select: { id: true },
  }));
});
afterAll(() => heed?.stop());

const toolNames = (req: RecordedRequest) =>
  ((req.body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name);
const toolResults = (req: RecordedRequest) =>
  (req.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => JSON.parse(String(m.content)));

/** A visitor asks for a person; the model calls handoff_to_human, then writes its line. */
async function askForPerson(text = 'Can I talk to a human, please?') {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.reset();
  heed.model.script(
    { toolCalls: [{ name: 'handoff_to_human', arguments: {} }] },
    { text: 'A person from Test site will reply here soon.' },
  );
  await visitor.send(conversationId, text);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 1);
  return { visitor, conversationId, requests: [...heed.model.requests] };
}

test('the model asks for a person: the conversation waits for one, the visitor reads the notice and the reply, and the console queues it under "waiting"', async () => {
  const { visitor, conversationId, requests } = await askForPerson();
  expect(requests).toHaveLength(2);
  expect(toolNames(requests[0]!)).toEqual(['request_user_input', 'todo_add', 'todo_complete', 'handoff_to_human']);
  expect(toolResults(requests[1]!)).toEqual([
    { ok: true, note: expect.stringMatching(/A person from Test site was asked to join\. Tell the visitor/) },
  ]);

  const got = await visitor.api.conversation.get.query({ conversationId });
  expect(got.conversation).toMatchObject({ waitingForPerson: true, unread: true, attention: 'unviewed', heldBy: null });
  expect(got.messages.map((m) => [m.role, m.content, m.provenance, m.provenanceLabel])).toEqual([
    ['user', 'Can I talk to a human, please?', null, null],
    ['notice', '', 'handoff_requested', 'Test site'],
    ['assistant', 'A person from Test site will reply here soon.', null, null],
  ]);
  // once read, the row says a person will reply (waiting ranks below unviewed: attention.ts)
  const read = await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: got.conversation.lastAssistantAt! });
  expect(read).toMatchObject({ attention: 'waiting', waitingForPerson: true, unread: false });

  const second = await askForPerson('I need a person for my invoice');
  const waiting = await ana.api.console.conversations.list.query({ filter: 'waiting' });
  // oldest wait first: the operators' queue
  expect(waiting.items.map((i) => i.id)).toEqual([conversationId, second.conversationId]);
  expect(waiting.items[0]).toMatchObject({ waitingForPerson: true, heldBy: null, private: false, waitingSince: expect.any(String) });
  const page1 = await ana.api.console.conversations.list.query({ filter: 'waiting', limit: 1 });
  expect(page1.items.map((i) => i.id)).toEqual([conversationId]);
  const page2 = await ana.api.console.conversations.list.query({ filter: 'waiting', limit: 1, cursor: page1.nextCursor! });
  expect([page2.items.map((i) => i.id), page2.nextCursor]).toEqual([[second.conversationId], null]);
  expect((await ana.api.console.conversations.list.query({ filter: 'waiting', search: 'invoice' })).items.map((i) => i.id)).toEqual([
    second.conversationId,
  ]);
  const transcript = await ana.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.waitingSince).toEqual(waiting.items[0]!.waitingSince);

  // a person takes over: no longer waiting
  const head = await ana.api.console.conversations.takeOver.mutate({ conversationId });
  expect(head).toMatchObject({ waitingForPerson: false, waitingSince: null, heldBy: { name: 'Ana' } });
  expect((await ana.api.console.conversations.list.query({ filter: 'waiting' })).items.map((i) => i.id)).toEqual([second.conversationId]);
  expect((await visitor.api.conversation.get.query({ conversationId })).conversation).toMatchObject({
    waitingForPerson: false,
    heldBy: 'Ana',
  });
  // nobody holding it and the site enabling it is what offers the tool
  expect(await handoffOffered(heed.services.db, conversationId)).toBe(false);
  expect(await handoffOffered(heed.services.db, second.conversationId)).toBe(true);
});

test('asking twice in one conversation stores one notice and keeps the first wait', async () => {
  const { visitor, conversationId } = await askForPerson();
  const since = (await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { waitingSince: true } }))
    .waitingSince;
  heed.model.script({ toolCalls: [{ name: 'handoff_to_human', arguments: {} }] }, { text: 'Still looking for a person for you.' });
  await visitor.send(conversationId, 'Is someone coming?');
  await heed.until(
    'the second reply',
    async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 2,
  );
  expect(toolResults(heed.model.requests.at(-1)!)).toEqual([{ ok: true, note: expect.stringContaining('already asked') }]);
  const row = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { waitingSince: true } });
  expect(row.waitingSince).toEqual(since);
  expect(await heed.services.db.message.count({ where: { conversationId, role: 'notice' } })).toBe(1);
});

test('a site with handoff off never offers the tool, and a call to it anyway is refused to the model and changes nothing', async () => {
  await heed.services.db.site.update({ where: { id: siteId }, data: { handoffEnabled: false } });
  try {
    const { conversationId, requests } = await askForPerson();
    expect(toolNames(requests[0]!)).toEqual(['request_user_input', 'todo_add', 'todo_complete']);
    expect(toolResults(requests[1]!)).toEqual([{ error: 'unknown tool "handoff_to_human"' }]);
    const row = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { waitingSince: true } });
    expect(row.waitingSince).toBeNull();
    expect(await heed.services.db.message.count({ where: { conversationId, role: 'notice' } })).toBe(0);
  } finally {
    await heed.services.db.site.update({ where: { id: siteId }, data: { handoffEnabled: true } });
  }
});
