import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';

let heed: TestHeed;
let owner: TestOperator;
let ana: TestOperator;
let bo: TestOperator;
let outsider: TestOperator;
let siteId: string;

beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1' } });
  ({ id: siteId } = await heed.services.db.site.update({
    where: { key: heed.siteKey },
    data: { handoffEnabled: true },
    select: { id: true },
  }));
  const other = await heed.services.db.site.create({ data: { key: 'other-shop', name: 'Other shop' }, select: { id: true } });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olive' });
  ana = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Ana', sites: [siteId] });
  bo = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Bo', sites: [siteId] });
  outsider = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Cy', sites: [other.id] });
});
afterAll(() => heed?.stop());

/** A visitor's conversation with one answered message. */
async function answered(text = 'Where is my order?') {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  await visitor.send(conversationId, text);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 1);
  return { visitor, conversationId };
}

/** A visitor the assistant handed to a person. */
async function handedOff() {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.script({ toolCalls: [{ name: 'handoff_to_human', arguments: {} }] }, { text: 'A person will reply here.' });
  await visitor.send(conversationId, 'I need a person');
  await heed.until(
    'the hand-off',
    async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 1,
  );
  return { visitor, conversationId };
}

const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

test('an operator assigns a conversation to an agent of its site; "Mine" lists it for that agent only, and an agent of another site cannot take it', async () => {
  const { conversationId } = await answered();
  const item = await owner.api.console.conversations.assign.mutate({ conversationId, assigneeId: ana.id });
  expect(item.assignee).toEqual({ id: ana.id, name: 'Ana' });
  expect(ids(await ana.api.console.conversations.list.query({ filter: 'mine' }))).toContain(conversationId);
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'mine' }))).not.toContain(conversationId);

  await expect(owner.api.console.conversations.assign.mutate({ conversationId, assigneeId: outsider.id })).rejects.toMatchObject({
    data: { code: 'BAD_REQUEST', reason: 'not_assignable' },
  });
  // outside the agent's sites the conversation does not exist
  await expect(outsider.api.console.conversations.assign.mutate({ conversationId, assigneeId: outsider.id })).rejects.toMatchObject({
    data: { code: 'NOT_FOUND' },
  });

  const unassigned = await ana.api.console.conversations.assign.mutate({ conversationId, assigneeId: null });
  expect(unassigned.assignee).toBeNull();
  expect(ids(await ana.api.console.conversations.list.query({ filter: 'mine' }))).not.toContain(conversationId);
});

test('resolved leaves "Mine" for "Resolved"; the visitor writing again reopens it', async () => {
  const { visitor, conversationId } = await answered();
  await ana.api.console.conversations.assign.mutate({ conversationId, assigneeId: ana.id });
  const resolved = await ana.api.console.conversations.setStatus.mutate({ conversationId, change: { status: 'resolved' } });
  expect(resolved.status).toBe('resolved');
  expect(ids(await ana.api.console.conversations.list.query({ filter: 'mine' }))).not.toContain(conversationId);
  expect(ids(await ana.api.console.conversations.list.query({ filter: 'resolved' }))).toContain(conversationId);

  await visitor.send(conversationId, 'One more thing: can I change the address?');
  const [row] = (await ana.api.console.conversations.list.query({ filter: 'mine' })).items.filter((i) => i.id === conversationId);
  expect(row).toMatchObject({ status: 'open', assignee: { id: ana.id } });
  expect(ids(await ana.api.console.conversations.list.query({ filter: 'resolved' }))).not.toContain(conversationId);
});

test('a snoozed conversation is under "Snoozed" until its time, then open again without anyone touching it', async () => {
  const { conversationId } = await answered();
  await bo.api.console.conversations.assign.mutate({ conversationId, assigneeId: bo.id });
  const until = new Date(Date.now() + 60 * 60_000).toISOString();
  const snoozed = await bo.api.console.conversations.setStatus.mutate({ conversationId, change: { status: 'snoozed', until } });
  expect(snoozed).toMatchObject({ status: 'snoozed', snoozedUntil: until });
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'snoozed' }))).toContain(conversationId);
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'mine' }))).not.toContain(conversationId);

  // the time passes (moved back in the database, as the clock would)
  await heed.services.db.conversation.update({ where: { id: conversationId }, data: { snoozedUntil: new Date(Date.now() - 1000) } });
  const mine = await bo.api.console.conversations.list.query({ filter: 'mine' });
  expect(mine.items.find((i) => i.id === conversationId)).toMatchObject({ status: 'open', snoozedUntil: null });
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'snoozed' }))).not.toContain(conversationId);

  await expect(
    bo.api.console.conversations.setStatus.mutate({
      conversationId,
      change: { status: 'snoozed', until: new Date(Date.now() - 1000).toISOString() },
    }),
  ).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
});

test('a hand-off is "Unassigned" until someone takes it: taking it over assigns it to the taker', async () => {
  const { conversationId } = await handedOff();
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'unassigned' }))).toContain(conversationId);
  await bo.api.console.conversations.takeOver.mutate({ conversationId });
  const [row] = (await bo.api.console.conversations.list.query({ filter: 'mine' })).items.filter((i) => i.id === conversationId);
  expect(row?.assignee).toEqual({ id: bo.id, name: 'Bo' });
  expect(ids(await bo.api.console.conversations.list.query({ filter: 'unassigned' }))).not.toContain(conversationId);
});

test("with automatic assignment, hand-offs go round-robin to the site's agents at the console, never to one signed out or away", async () => {
  await heed.services.db.site.update({ where: { id: siteId }, data: { autoAssign: true } });
  // Cy is signed in but answers another site; Bo signs out; Eve's session is valid but unused for hours
  await heed.services.db.operatorSession.updateMany({ where: { operatorId: bo.id }, data: { revokedAt: new Date() } });
  const assignees: (string | null)[] = [];
  const dee = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Dee', sites: 'all' });
  const eve = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Eve', sites: 'all' });
  await heed.services.db.operatorSession.updateMany({
    where: { operatorId: eve.id },
    data: { lastSeenAt: new Date(Date.now() - 3 * 60 * 60 * 1000) },
  });
  for (let i = 0; i < 4; i++) {
    const { conversationId } = await handedOff();
    const c = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { assigneeId: true } });
    assignees.push(c.assigneeId);
  }
  expect(new Set(assignees)).toEqual(new Set([ana.id, dee.id]));
  expect(assignees.filter((a) => a === ana.id)).toHaveLength(2);
  await heed.services.db.site.update({ where: { id: siteId }, data: { autoAssign: false } });
});

test("a note is the team's: in the transcript with its author, never in what the visitor reads or what the model is sent", async () => {
  const { visitor, conversationId } = await answered('Do you ship to Norway?');
  const note = await ana.api.console.conversations.addNote.mutate({
    conversationId,
    text: '  NOTE-MARKER-7731 customer is a wholesaler  ',
  });
  expect(note).toMatchObject({ authorName: 'Ana', content: 'NOTE-MARKER-7731 customer is a wholesaler' });
  const transcript = await owner.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.notes.map((n) => [n.authorName, n.content])).toEqual([['Ana', 'NOTE-MARKER-7731 customer is a wholesaler']]);
  await expect(outsider.api.console.conversations.addNote.mutate({ conversationId, text: 'hi' })).rejects.toMatchObject({
    data: { code: 'NOT_FOUND' },
  });

  heed.model.reset();
  await visitor.send(conversationId, 'And how long does it take?');
  await heed.until(
    'the second reply',
    async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 2,
  );
  const sent = JSON.stringify(heed.model.requests.map((r) => r.body));
  expect(sent).toContain('how long does it take');
  expect(sent).not.toContain('NOTE-MARKER-7731');
  const seen = await visitor.api.conversation.get.query({ conversationId });
  expect(JSON.stringify(seen)).not.toContain('NOTE-MARKER-7731');
  const events = await heed.services.db.event.findMany({ where: { conversationId }, select: { payload: true } });
  expect(JSON.stringify(events)).not.toContain('NOTE-MARKER-7731');
});

test('canned replies: owners write them, every operator of the site reads them, shortcuts are unique per site', async () => {
  const saved = await owner.api.console.cannedReplies.save.mutate({ siteId, shortcut: 'Refund', content: 'Refunds take 5 days.' });
  expect(saved).toMatchObject({ shortcut: 'refund', content: 'Refunds take 5 days.' });
  await expect(owner.api.console.cannedReplies.save.mutate({ siteId, shortcut: 'refund', content: 'Other' })).rejects.toMatchObject({
    data: { code: 'CONFLICT', reason: 'shortcut_taken' },
  });
  await expect(owner.api.console.cannedReplies.save.mutate({ siteId, shortcut: 'no spaces', content: 'x' })).rejects.toMatchObject({
    data: { code: 'BAD_REQUEST' },
  });
  expect((await ana.api.console.cannedReplies.list.query({ siteId })).map((r) => r.shortcut)).toEqual(['refund']);
  await expect(ana.api.console.cannedReplies.save.mutate({ siteId, shortcut: 'hello', content: 'Hi!' })).rejects.toMatchObject({
    data: { code: 'FORBIDDEN' },
  });
  await expect(outsider.api.console.cannedReplies.list.query({ siteId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

  const changed = await owner.api.console.cannedReplies.save.mutate({
    siteId,
    id: saved.id,
    shortcut: 'refunds',
    content: 'Refunds take 3 days.',
  });
  expect(changed).toMatchObject({ id: saved.id, shortcut: 'refunds' });
  await owner.api.console.cannedReplies.remove.mutate({ siteId, id: saved.id });
  expect(await ana.api.console.cannedReplies.list.query({ siteId })).toEqual([]);
});
