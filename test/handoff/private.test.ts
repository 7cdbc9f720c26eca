import { afterAll, beforeAll, expect, test } from 'vitest';
import { handoffOffered } from '../../api/src/handoff/handoff-offer.ts';
import { TestHeed } from '../support/harness.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { sendAndAwaitReply, titleAnswer, titleAwareResponder, titleRequests, titleRow } from '../support/titles.ts';
import { csvRecords } from '../console/export-csv.ts';
import { errorOf } from './helpers.ts';

let heed: TestHeed;
let owner: TestOperator;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { MODEL_MAX_ATTEMPTS: '1' } });
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olga' });
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { handoffEnabled: true } });
});
afterAll(() => heed?.stop());

test('a visitor marks their own conversation private: the console keeps its metadata but shows, exports and finds none of its words', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.setResponder(titleAwareResponder(() => titleAnswer('Walnut rash'), { text: 'Noted about the walnut rash.' }));
  await sendAndAwaitReply(heed, visitor, conversationId, 'My walnut allergy rash is back');
  expect((await titleRow(heed, conversationId)).titleRequestedAt).not.toBeNull();

  // only their own conversation
  const stranger = await heed.visitor();
  expect(await errorOf(stranger.api.conversation.setPrivate.mutate({ conversationId, private: true }))).toMatchObject({
    code: 'NOT_FOUND',
  });
  const events = visitor.subscribe((await visitor.api.conversation.list.query()).cursor);
  const view = await visitor.api.conversation.setPrivate.mutate({ conversationId, private: true });
  expect(view).toMatchObject({ id: conversationId, private: true, title: 'My walnut allergy rash is back' });
  await events.waitFor((e) => e.type === 'conversation.updated' && e.conversation.private);
  events.close();
  // the pending title request is dropped, and a reply no longer asks for one
  expect((await titleRow(heed, conversationId)).titleRequestedAt).toBeNull();
  await sendAndAwaitReply(heed, visitor, conversationId, 'It itches near the walnut tree');
  expect((await titleRow(heed, conversationId)).titleRequestedAt).toBeNull();
  heed.model.reset();
  await heed.services.db.$executeRaw`UPDATE "Conversation" SET "titleRequestedAt" = now() WHERE id = ${conversationId}::uuid`;
  const pass = await heed.titlePass();
  expect([pass.claimed, titleRequests(heed)]).toEqual([0, []]);

  // the console: metadata, no words
  const [item] = (await owner.api.console.conversations.list.query({ search: conversationId })).items;
  expect(item).toMatchObject({ id: conversationId, private: true, title: null, excerpt: null, messageCount: 4, attention: 'unviewed' });
  expect((await owner.api.console.conversations.list.query({ search: 'walnut' })).items).toEqual([]);
  expect((await owner.api.console.conversations.list.query({ search: visitor.visitorId })).items.map((i) => i.id)).toEqual([
    conversationId,
  ]);
  const transcript = await owner.api.console.conversations.transcript.query({ conversationId });
  expect(transcript.private).toBe(true);
  expect(transcript.conversation).toMatchObject({ title: null, excerpt: null, private: true });
  expect(transcript.messages.map((m) => [m.role, m.content, m.redacted, m.state])).toEqual([
    ['user', '', true, 'answered'],
    ['assistant', '', true, null],
    ['user', '', true, 'answered'],
    ['assistant', '', true, null],
  ]);
  expect(transcript.titleHistory.every((h) => h.title === null)).toBe(true);
  expect(JSON.stringify(transcript)).not.toMatch(/walnut|rash|itch/i);
  const csv = await (await fetch(`${heed.url}/admin/export/conversations.csv`, { headers: { cookie: owner.cookie } })).text();
  expect(csv).not.toMatch(/walnut|rash|itch/i);
  expect(csvRecords(csv).find((r) => r.id === conversationId)).toMatchObject({ title: '', excerpt: '', private: 'true', messages: '4' });

  // nobody takes it over, and the model cannot hand it to a person
  expect(await errorOf(owner.api.console.conversations.takeOver.mutate({ conversationId }))).toMatchObject({
    code: 'FORBIDDEN',
    reason: 'private',
  });
  expect(await handoffOffered(heed.services.db, conversationId)).toBe(false);
  expect(await errorOf(owner.api.console.conversations.retitle.mutate({ conversationId }))).toMatchObject({
    code: 'CONFLICT',
    reason: 'private',
  });

  // and back: its words show again
  expect(await visitor.api.conversation.setPrivate.mutate({ conversationId, private: false })).toMatchObject({ private: false });
  expect((await owner.api.console.conversations.list.query({ search: 'walnut' })).items.map((i) => [i.id, i.title])).toEqual([
    [conversationId, 'My walnut allergy rash is back'],
  ]);
  expect(await handoffOffered(heed.services.db, conversationId)).toBe(true);
});

test('a title being generated when the conversation turns private is not stored', async () => {
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.reset();
  heed.model.setResponder(titleAwareResponder(() => ({ ...titleAnswer('Tax fraud help'), delayMs: 1500 }), { text: 'Let us look at it.' }));
  await sendAndAwaitReply(heed, visitor, conversationId, 'Help me with my taxes');
  // only this conversation's request is due
  await heed.services.db.$executeRaw`UPDATE "Conversation" SET "titleRequestedAt" = NULL WHERE id <> ${conversationId}::uuid`;
  const pass = heed.titlePass();
  await heed.until('the title call', () => titleRequests(heed).length === 1);
  await visitor.api.conversation.setPrivate.mutate({ conversationId, private: true });
  expect((await pass).outcomes).toMatchObject({ changed: 0, skipped: 1 });
  expect(await titleRow(heed, conversationId)).toMatchObject({
    title: 'Help me with my taxes',
    titleSource: 'first_message',
    titleRequestedAt: null,
  });
});
