import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { TestHeed, type TestVisitor } from '../support/harness.ts';
import { promptMessages } from '../support/conversation-text.ts';
import { scheduleCheckIns } from '../../api/src/proactive/check-ins.ts';
import { PROACTIVE_HEADING } from '../../api/src/proactive/proactive-section.ts';

let heed: TestHeed;
let siteId: string;
beforeAll(async () => {
  heed = await TestHeed.start();
  siteId = (await heed.services.db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } })).id;
  await heed.services.db.site.update({ where: { id: siteId }, data: { checkInAfterMinutes: 5 } });
});
afterAll(() => heed?.stop());
beforeEach(() => heed.model.reset());

const db = () => heed.services.db;

/** A conversation whose visitor got `reply` and then went silent for `minutes`. */
async function silentAfter(reply: string, minutes: number): Promise<{ v: TestVisitor; conversationId: string }> {
  const v = await heed.visitor();
  const conversationId = await v.conversation();
  heed.model.script({ text: reply });
  await v.send(conversationId, 'I need a jacket.');
  await heed.until('the reply', async () => (await db().message.count({ where: { conversationId, role: 'assistant' } })) === 1);
  // the silence, in the past: every row moves back together
  const shift = minutes * 60_000;
  for (const m of await db().message.findMany({ where: { conversationId } })) {
    await db().message.update({ where: { id: m.id }, data: { createdAt: new Date(m.createdAt.getTime() - shift) } });
  }
  const c = await db().conversation.findUniqueOrThrow({ where: { id: conversationId } });
  await db().conversation.update({
    where: { id: conversationId },
    data: { lastAssistantAt: new Date(c.lastAssistantAt!.getTime() - shift) },
  });
  return { v, conversationId };
}

test('after N minutes of silence following a reply that asked a question, one check-in is written, labelled and unread', async () => {
  const { v, conversationId } = await silentAfter('Which size do you wear?', 12);
  heed.model.reset();
  heed.model.script({ text: 'Still there? Tell me your size and I will find one.' });
  // (a worker's own pass, every 30 s, may come first: either way there is exactly one request)
  await scheduleCheckIns(db());
  const request = await heed.until('the check-in', async () => {
    const r = await db().proactiveRequest.findFirst({ where: { conversationId, kind: 'check_in' } });
    return r?.status === 'delivered' ? r : null;
  });
  const section = promptMessages(heed.model.requests[0]!).at(-1)!;
  expect(section.role).toBe('system');
  expect(section.content).toContain(`# ${PROACTIVE_HEADING}`);
  expect(section.content).toContain('silent for 12 minutes after your last reply');
  expect(section.content).toContain('Check in once, briefly');
  const message = await db().message.findUniqueOrThrow({ where: { id: request.messageId! } });
  expect(message).toMatchObject({
    provenance: 'check_in',
    provenanceLabel: null,
    content: 'Still there? Tell me your size and I will find one.',
  });
  const { conversations } = await v.api.conversation.list.query();
  expect(conversations[0]).toMatchObject({
    unread: true,
    attention: 'unviewed',
    excerpt: 'Still there? Tell me your size and I will find one.',
  });
  const thread = await v.api.conversation.get.query({ conversationId });
  expect(thread.messages.at(-1)).toMatchObject({ provenance: 'check_in', provenanceLabel: null });

  // the same silence never gets a second one (the newest message is now the check-in itself)
  expect(await scheduleCheckIns(db())).not.toContain(conversationId);
  expect(await db().proactiveRequest.count({ where: { conversationId } })).toBe(1);
});

test('an open todo also counts; a closed reply, a recent one, or a held conversation gets none', async () => {
  const todo = await silentAfter('I will check the stock for you.', 10);
  const run = await db().run.findFirstOrThrow({ where: { conversationId: todo.conversationId } });
  await db().todo.create({ data: { conversationId: todo.conversationId, text: 'Check stock', addedRunId: run.id } });
  const closed = await silentAfter('Here is our jacket page.', 10);
  const recent = await silentAfter('Which colour?', 2);
  const held = await silentAfter('Which colour?', 10);
  await db().conversation.update({ where: { id: held.conversationId }, data: { waitingSince: new Date() } });
  heed.model.reset();
  heed.model.script({ text: 'Quick update: still checking the stock.' });
  const due = await scheduleCheckIns(db());
  expect(await db().proactiveRequest.count({ where: { conversationId: todo.conversationId, kind: 'check_in' } })).toBe(1);
  for (const c of [closed, recent, held]) {
    expect(due).not.toContain(c.conversationId);
    expect(await db().proactiveRequest.count({ where: { conversationId: c.conversationId } })).toBe(0);
  }
  await heed.until(
    'the todo check-in',
    async () => (await db().proactiveRequest.findFirst({ where: { conversationId: todo.conversationId } }))?.status === 'delivered',
  );
});

test('a check-in the budget refuses is stored refused and counted once, never re-counted for the same silence', async () => {
  await db().site.update({ where: { id: siteId }, data: { unsolicitedPerDay: 0 } });
  try {
    const count = async () =>
      (await db().proactiveRefusal.findMany({ where: { siteId, reason: 'daily_budget' } })).reduce((n, r) => n + r.count, 0);
    const before = await count();
    const { conversationId } = await silentAfter('Shall I reserve it?', 10);
    expect(await scheduleCheckIns(db())).not.toContain(conversationId);
    expect(await db().proactiveRequest.findFirstOrThrow({ where: { conversationId } })).toMatchObject({
      kind: 'check_in',
      status: 'refused',
      reason: 'daily_budget',
    });
    expect(await count()).toBe(before + 1);
    await scheduleCheckIns(db());
    expect(await count()).toBe(before + 1);
    expect(await db().proactiveRequest.count({ where: { conversationId } })).toBe(1);
  } finally {
    await db().site.update({ where: { id: siteId }, data: { unsolicitedPerDay: 2 } });
  }
});

test('the worker loop looks for due check-ins by itself (at start, then every 30 s)', async () => {
  const { conversationId } = await silentAfter('Want me to hold one for you?', 8);
  heed.model.reset();
  heed.model.script({ text: 'Just checking in: shall I hold it?' });
  // a worker starting now looks at once; no scheduleCheckIns call from the test
  await heed.startWorker();
  await heed.until(
    'the check-in',
    async () => (await db().proactiveRequest.findFirst({ where: { conversationId, kind: 'check_in' } }))?.status === 'delivered',
  );
  expect(await db().message.count({ where: { conversationId, provenance: 'check_in' } })).toBe(1);
});
