import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApiKey } from '../../api/src/proactive/api-keys.ts';
import { makeClient, TestHeed, TestVisitor } from '../support/harness.ts';
import { signedInOperator } from '../support/console.ts';
import { findMarker, markerPlacesOf } from '../support/marker-search.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';

/**
 * A site's server exports and then erases everything Heed holds about one identified user
 * (conversations, a question, a todo, a contact address, a file, a team note, an unanswered
 * question), in whichever mode this run is in (server, or embedded with a folder file store):
 * afterwards a marker written in every one of those places is found in no table, Redis key or
 * file, the user's token is refused like a forged one, their stream has ended, one content-free
 * record stays, and asking again answers the same. Another user's data is untouched.
 */
const IDENTITY_SECRET = 'identity-secret-for-erasure-tests';
let heed: TestHeed;
let smtp: SmtpInbox;
let siteId: string;
let apiKey: string;

beforeAll(async () => {
  // email on, so a visitor can leave an address for replies
  smtp = await SmtpInbox.start();
  heed = await TestHeed.start({ workers: 1, env: { SMTP_URL: smtp.url } });
  const site = await heed.services.db.site.update({
    where: { key: heed.siteKey },
    data: { identitySecrets: [IDENTITY_SECRET] },
    select: { id: true },
  });
  siteId = site.id;
  apiKey = (await createApiKey(heed.services.db, siteId, 'privacy tests'))!.key;
});
afterAll(async () => {
  await heed?.stop();
  await smtp?.stop();
});

/** A visitor the host identified as `userId`, as the widget starts one. */
async function identified(userId: string): Promise<TestVisitor> {
  const token = await new SignJWT({ sub: userId, email: `${userId}@example.com`, name: 'Ana Example' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(IDENTITY_SECRET));
  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey, identity: { userId, token } });
  return new TestVisitor(heed, session.visitorToken, session.visitorId);
}

const siteApi = (path: string, init: RequestInit = {}, key = apiKey) =>
  fetch(`${heed.url}/api/v1/sites/${heed.siteKey}/${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

/** Writes `marker` through every path a visitor's data takes; answers the conversation. */
async function leaveData(visitor: TestVisitor, marker: string): Promise<string> {
  const conversationId = await visitor.conversation();
  heed.model.script(
    { toolCalls: [{ id: `todo-${marker}`, name: 'todo_add', arguments: { text: `Send the ${marker} guide` } }] },
    { text: `Here is what I know about ${marker}.` },
  );
  await visitor.send(conversationId, `Tell me about ${marker}`);
  await heed.until('the reply', async () =>
    (await visitor.api.conversation.get.query({ conversationId })).messages.some((m) => m.role === 'assistant' && !m.error),
  );
  heed.model.script({
    toolCalls: [
      { id: `ask-${marker}`, name: 'request_user_input', arguments: { question: `Which ${marker} colour?`, choices: ['Red', 'Blue'] } },
    ],
  });
  await visitor.send(conversationId, `And the ${marker} colours?`);
  await heed.until('the question', async () => (await heed.services.db.inputRequest.count({ where: { conversationId } })) > 0);
  await visitor.api.session.contactEmail.mutate({ email: `${marker}@example.com`, pageUrl: 'https://shop.example/help' });

  const upload = await fetch(`${heed.url}/files?conversationId=${conversationId}&name=notes.txt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor.token}`, origin: 'https://shop.example', 'content-type': 'application/octet-stream' },
    body: new TextEncoder().encode(`my order notes ${marker}\n`),
  });
  expect(upload.status).toBe(201);
  const { attachment } = (await upload.json()) as { attachment: { id: string } };
  heed.model.script({ text: `Noted, ${marker}.` });
  await visitor.api.message.send.mutate({ conversationId, clientMessageId: randomUUID(), content: '', attachmentIds: [attachment.id] });
  await heed.until(
    'the reply to the file',
    async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) >= 2,
  );

  const owner = await signedInOperator(heed.services, heed.url);
  await owner.api.console.conversations.addNote.mutate({ conversationId, text: `Team note about ${marker}` });
  const run = await heed.services.db.run.findFirstOrThrow({ where: { conversationId }, select: { id: true } });
  await heed.services.db.unansweredQuestion.create({ data: { siteId, conversationId, runId: run.id, text: `Tell me about ${marker}` } });
  return conversationId;
}

test("a user's data is exported whole, then erased from every store; their token fails; one record without content stays", async () => {
  const marker = `mk${randomUUID().replaceAll('-', '')}`;
  const other = `ot${randomUUID().replaceAll('-', '')}`;
  const userId = `user-${randomUUID()}`;
  const ana = await identified(userId);
  const conversationId = await leaveData(ana, marker);
  const bob = await identified(`user-${randomUUID()}`);
  await leaveData(bob, other);
  const places = markerPlacesOf(heed);
  expect((await findMarker(places, marker)).length).toBeGreaterThan(5);

  // the export: every kind of data, and the file behind a link that works for a day
  const exported = await siteApi(`users/${encodeURIComponent(userId)}/export`);
  expect(exported.status).toBe(200);
  const doc = await exported.json();
  expect(doc).toMatchObject({ format: 'heed.visitor-data', version: 1, subject: { kind: 'user', userId }, site: { key: heed.siteKey } });
  const [visitor] = doc.visitors;
  expect(visitor.identity).toMatchObject({ userId, email: `${userId}@example.com` });
  expect(visitor.contact.email).toBe(`${marker}@example.com`);
  expect(visitor.consent.replyEmails).toBe(true);
  const [conversation] = visitor.conversations;
  expect(conversation.conversationId).toBe(conversationId);
  const texts = conversation.messages.map((m: { text: string }) => m.text).join('\n');
  expect(texts).toContain(`Tell me about ${marker}`);
  expect(texts).toContain(`Here is what I know about ${marker}.`);
  expect(conversation.todos[0].text).toBe(`Send the ${marker} guide`);
  expect(conversation.questions[0].question).toBe(`Which ${marker} colour?`);
  expect(conversation.teamNotes[0].text).toBe(`Team note about ${marker}`);
  expect(JSON.stringify(doc)).not.toContain(other);
  const file = conversation.messages.flatMap((m: { files: { url: string }[] }) => m.files)[0];
  expect(new Date(doc.linksExpireAt).getTime()).toBeGreaterThan(Date.now());
  const bytes = await fetch(file.url);
  expect(bytes.status).toBe(200);
  expect(await bytes.text()).toContain(marker);
  expect((await fetch(file.url.replace(/s=[^&]+/, 's=forged'))).status).toBe(404);

  // the erasure, while their stream is open
  const streamsBefore = await heed.openStreams();
  // from the log's start: its first event proves the stream listens (it joins the channel before it reads)
  const stream = ana.subscribe('0');
  await stream.waitFor(() => true);
  const erased = await siteApi(`users/${encodeURIComponent(userId)}`, { method: 'DELETE' });
  expect(erased.status).toBe(200);
  const result = await erased.json();
  expect(result).toMatchObject({
    subject: 'user',
    counts: { visitors: 1, conversations: 1, todos: 1, questions: 1, attachments: 1, files: 1, notes: 1, unansweredQuestions: 1 },
  });
  expect(result.counts.messages).toBeGreaterThanOrEqual(5);
  expect(result.counts.events).toBeGreaterThan(0);

  expect(await findMarker(places, marker)).toEqual([]);
  expect(await findMarker(places, userId)).toEqual([]);
  expect((await findMarker(places, other)).length).toBeGreaterThan(5);
  expect((await fetch(file.url)).status).toBe(404);

  // the token fails exactly as a forged one does; the open stream ended
  const refused = (p: Promise<unknown>) =>
    p.then(
      () => ({ message: 'accepted', data: null }),
      (err: { message: string; data?: unknown }) => ({ message: err.message, data: err.data }),
    );
  const refusal = await refused(ana.api.conversation.list.query());
  const forged = await refused(makeClient(heed.url, `${ana.token.slice(0, -4)}AAAA`).conversation.list.query());
  expect(refusal).toMatchObject({ message: forged.message, data: { code: 'UNAUTHORIZED' } });
  await heed.until('the stream to end', async () => (await heed.openStreams()) === streamsBefore);
  stream.close();

  // one record, without content; asked again, the same answer
  const records = await heed.services.db.erasureRecord.findMany({ where: { siteId } });
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ subject: 'user', actorKind: 'api_key' });
  expect(JSON.stringify(records[0])).not.toContain(userId);
  const again = await siteApi(`users/${encodeURIComponent(userId)}`, { method: 'DELETE' });
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual(result);
  expect(await heed.services.db.erasureRecord.count({ where: { siteId } })).toBe(1);
  expect((await siteApi(`users/${encodeURIComponent(userId)}/export`)).status).toBe(404);
});

test('an anonymous visitor is erased by visitor id; unknown ids answer zero counts; a wrong key is refused', async () => {
  const marker = `an${randomUUID().replaceAll('-', '')}`;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.script({ text: `About ${marker}.` });
  await visitor.send(conversationId, `Question ${marker}`);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) > 0);

  expect((await siteApi(`visitors/${visitor.visitorId}`, { method: 'DELETE' }, 'heed_sk_not-a-key')).status).toBe(401);
  const exported = await (await siteApi(`visitors/${visitor.visitorId}/export`)).json();
  expect(exported.visitors[0].identity).toBeNull();
  const erased = await siteApi(`visitors/${visitor.visitorId}`, { method: 'DELETE' });
  expect(await erased.json()).toMatchObject({ subject: 'visitor', counts: { visitors: 1, conversations: 1 } });
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);

  const unknown = await (await siteApi(`users/nobody-${randomUUID()}`, { method: 'DELETE' })).json();
  expect(unknown.counts).toMatchObject({ visitors: 0, conversations: 0, messages: 0 });
  expect((await siteApi(`visitors/not-a-uuid`, { method: 'DELETE' })).status).toBe(404);
  expect((await siteApi(`users/${randomUUID()}`, { method: 'PUT' })).status).toBe(405);
});

test('from the console: owners erase a visitor after seeing what goes, agents may not, and the download holds their data', async () => {
  const marker = `co${randomUUID().replaceAll('-', '')}`;
  const visitor = await heed.visitor();
  const conversationId = await visitor.conversation();
  heed.model.script({ text: `About ${marker}.` });
  await visitor.send(conversationId, `Console ${marker}`);
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) > 0);
  const owner = await signedInOperator(heed.services, heed.url);
  const agent = await signedInOperator(heed.services, heed.url, { role: 'agent' });

  const preview = await agent.api.console.visitors.erasure.query({ conversationId });
  expect(preview).toMatchObject({
    visitorId: visitor.visitorId,
    identified: false,
    counts: { conversations: 1, messages: 2, attachments: 0 },
  });
  const download = await fetch(`${heed.url}/admin/export/visitor.json?conversationId=${conversationId}`, {
    headers: { cookie: agent.cookie },
  });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="heed-visitor-data-.*\.json"$/);
  expect(await download.text()).toContain(`Console ${marker}`);
  expect((await fetch(`${heed.url}/admin/export/visitor.json?conversationId=${conversationId}`)).status).toBe(401);

  await expect(agent.api.console.visitors.erase.mutate({ conversationId })).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  const erased = await owner.api.console.visitors.erase.mutate({ conversationId });
  expect(erased).toMatchObject({ subject: 'visitor', counts: { visitors: 1, conversations: 1, messages: 2 } });
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);
  const record = await heed.services.db.erasureRecord.findFirstOrThrow({
    where: { siteId, actorKind: 'operator' },
    select: { actorId: true },
  });
  expect(record.actorId).toBe(owner.id);
  await expect(owner.api.console.visitors.erasure.query({ conversationId })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
});
