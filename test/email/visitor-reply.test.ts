import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signingKeys } from '../../api/src/auth/signing-keys.ts';
import { readAlertSettings } from '../../api/src/operators/alert-settings.ts';
import { signResumeToken } from '../../api/src/email/resume-token.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import { makeClient, type TestHeed, type TestVisitor } from '../support/harness.ts';
import { linkIn, type ReceivedMail, type SmtpInbox } from '../support/smtp-inbox.ts';
import { errorOf } from '../handoff/helpers.ts';
import { askForPerson, dueNow, emailPasses, emailStack, handoffSite, outbox } from './helpers.ts';

let heed: TestHeed;
let inbox: SmtpInbox;
let stop: () => Promise<unknown>;
let passes: ReturnType<typeof emailPasses>;
let eve: TestOperator;
beforeAll(async () => {
  ({ heed, inbox, stop } = await emailStack({ EMAIL_ALERT_DELAY_MS: '600000' }));
  await handoffSite(heed);
  await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { allowedOrigins: ['https://shop.example'] } });
  heed.services.sites.clear();
  passes = emailPasses(heed);
  eve = await signedInOperator(heed.services, heed.url, { role: 'agent', name: 'Eve' });
});
afterAll(async () => {
  passes?.close();
  await stop?.();
});

const PAGE = 'https://shop.example/help?topic=shipping';
const addressOf = () => `visitor-${randomUUID().slice(0, 8)}@example.test`;

/** A visitor who asked for a person and left an address; Eve took the conversation over. */
async function waitingVisitor() {
  const { visitor, conversationId } = await askForPerson(heed);
  const email = addressOf();
  expect(await visitor.api.session.contactEmail.mutate({ email: `  ${email} `, pageUrl: `${PAGE}#top` })).toEqual({ contactEmail: email });
  await eve.api.console.conversations.takeOver.mutate({ conversationId });
  return { visitor, conversationId, email };
}

const reply = (conversationId: string, text: string) =>
  eve.api.console.conversations.reply.mutate({ conversationId, text, clientMessageId: randomUUID() });

/** Queues and sends what is due now, as the worker would once the delay passed. */
async function deliver() {
  await passes.alerts();
  await dueNow(heed);
  return passes.send();
}

const tokenIn = (mail: ReceivedMail) => decodeURIComponent(linkIn(mail, `${PAGE}#heed-resume=`).split('#heed-resume=')[1]!);

test('an operator’s reply the visitor did not read is emailed, with a link back to their page that resumes the conversation', async () => {
  const { visitor, conversationId, email } = await waitingVisitor();
  await reply(conversationId, 'We can ship on **Monday**.');
  await reply(conversationId, 'Does that work for you?');
  expect(await deliver()).toMatchObject({ sent: 1 });
  const mail = await inbox.next((m) => m.to.includes(email));
  expect(mail.subject).toBe('Eve from Test site replied to you');
  expect(mail.text).toContain('Eve from Test site replied to you:\n\nWe can ship on **Monday**.\n\nDoes that work for you?');
  expect(mail.text).toContain('this link works for 7 days');
  expect(mail.header('list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:3000\/email\/unsubscribe\?t=u1\./);

  // the widget on that page exchanges the token for the visitor's own session, and opens the conversation
  const anon = makeClient(heed.url, null);
  const session = await anon.session.resume.mutate({ siteKey: heed.siteKey, resumeToken: tokenIn(mail) });
  expect(session).toMatchObject({ visitorId: visitor.visitorId, conversationId, resumed: true, emailReplies: true });
  const shown = await makeClient(heed.url, session.visitorToken).conversation.get.query({ conversationId });
  expect(shown.messages.filter((m) => m.role === 'operator').map((m) => m.content)).toEqual([
    'We can ship on **Monday**.',
    'Does that work for you?',
  ]);

  // the same replies are not emailed twice, nor the next reply while the first are still unread
  await reply(conversationId, 'Let me know.');
  expect(await deliver()).toMatchObject({ sent: 0 });
  expect(inbox.to(email)).toHaveLength(1);
});

test('a forged, altered, expired or foreign resume token is refused like a forged visitor token', async () => {
  const { visitor, conversationId } = await waitingVisitor();
  const keys = signingKeys(heed.config);
  const good = signResumeToken(keys, { visitorId: visitor.visitorId, conversationId });
  const anon = makeClient(heed.url, null);
  const resume = (resumeToken: string, siteKey = heed.siteKey) => errorOf(anon.session.resume.mutate({ siteKey, resumeToken }));
  const refused = { code: 'UNAUTHORIZED', reason: 'resume_token_invalid' };
  const flipped = `${good.slice(0, -3)}${good.at(-3) === 'A' ? 'B' : 'A'}${good.slice(-2)}`;
  expect(await resume(flipped)).toMatchObject(refused);
  const other = await heed.visitor();
  expect(await resume(good.replace(visitor.visitorId, other.visitorId))).toMatchObject(refused);
  expect(
    await resume(signResumeToken(keys, { visitorId: visitor.visitorId, conversationId }, { now: Date.now() - 8 * 24 * 3600_000 })),
  ).toMatchObject(refused);
  expect(await resume(signResumeToken(keys, { visitorId: other.visitorId, conversationId }))).toMatchObject(refused);
  expect(
    await resume(
      signResumeToken(
        { current: { kid: keys.current.kid, secret: 'another-secret-entirely-0123456789' } },
        { visitorId: visitor.visitorId, conversationId },
      ),
    ),
  ).toMatchObject(refused);
  expect(await resume('r1.nonsense')).toMatchObject(refused);
  // another site's key: the token's visitor is not that site's
  const otherSite = await heed.services.db.site.create({ data: { key: `other-${randomUUID().slice(0, 8)}`, name: 'Other' } });
  expect(await resume(good, otherSite.key)).toMatchObject(refused);
  expect(await resume(good)).toBeNull();
});

test('a reply the visitor read before the delay is not emailed', async () => {
  const { visitor, conversationId, email } = await waitingVisitor();
  await reply(conversationId, 'Found it.');
  await passes.alerts();
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: conversation.lastAssistantAt! });
  await dueNow(heed);
  expect(await passes.send()).toMatchObject({ sent: 0, cancelled: 1 });
  expect(inbox.to(email)).toEqual([]);
});

test('the unsubscribe link asks first, then stops a visitor’s emails at once, with small pages under the API’s security headers', async () => {
  const { visitor, conversationId, email } = await waitingVisitor();
  await reply(conversationId, 'First answer.');
  await deliver();
  const mail = await inbox.next((m) => m.to.includes(email));
  const link = linkIn(mail, 'http://127.0.0.1:3000/email/unsubscribe?t=').replace('http://127.0.0.1:3000', heed.url);
  // opening the link (as a mail gateway's scanner does) only asks
  const asked = await fetch(link);
  expect(asked.status).toBe(200);
  expect(asked.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(asked.headers.get('x-content-type-options')).toBe('nosniff');
  expect(asked.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(asked.headers.get('content-security-policy')).toContain("form-action 'self'");
  expect(asked.headers.get('referrer-policy')).toBe('no-referrer');
  expect(await asked.text()).toContain('<form method="post"><button type="submit">Unsubscribe</button></form>');
  expect((await heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitor.visitorId } })).emailOptOutAt).toBeNull();
  // the page's button posts to the same address
  const page = await fetch(link, { method: 'POST' });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('You are unsubscribed');
  const row = await heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitor.visitorId } });
  expect(row.emailOptOutAt).toBeInstanceOf(Date);

  // read, then a new reply: nothing is queued for them any more
  const { conversation } = await visitor.api.conversation.get.query({ conversationId });
  await visitor.api.conversation.markRead.mutate({ conversationId, lastAssistantAt: conversation.lastAssistantAt! });
  await reply(conversationId, 'Second answer.');
  expect(await deliver()).toMatchObject({ sent: 0 });
  expect(await outbox(heed, { visitorId: visitor.visitorId })).toHaveLength(1);
  expect(inbox.to(email)).toHaveLength(1);
  // a mail client's one-click POST does the same; an altered link changes nothing
  expect(
    (
      await fetch(link, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).status,
  ).toBe(200);
  const altered = await fetch(link.replace(visitor.visitorId, (await heed.visitor()).visitorId));
  expect([altered.status, await altered.text()]).toEqual([400, expect.stringContaining('This link does not work')]);
});

test('an operator’s unsubscribe link turns their email alerts off, as their profile would', async () => {
  const olga = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olga' });
  await heed.services.db.operator.update({ where: { id: olga.id }, data: { passwordHash: 'scrypt$signed-up', alerts: { sound: true } } });
  await askForPerson(heed);
  await deliver();
  const mail = await inbox.next((m) => m.to.includes(olga.email));
  const link = linkIn(mail, 'http://127.0.0.1:3000/email/unsubscribe?t=').replace('http://127.0.0.1:3000', heed.url);
  expect(await (await fetch(link)).text()).toContain('Stop these emails?');
  expect(readAlertSettings((await heed.services.db.operator.findUniqueOrThrow({ where: { id: olga.id } })).alerts).email).toBe(true);
  const page = await fetch(link, { method: 'POST' });
  expect([page.status, await page.text()]).toEqual([200, expect.stringContaining('Email alerts are off')]);
  const { alerts } = await heed.services.db.operator.findUniqueOrThrow({ where: { id: olga.id } });
  expect(readAlertSettings(alerts)).toEqual({ notify: true, sound: true, email: false });
  await askForPerson(heed);
  expect(await deliver()).toMatchObject({ sent: 0 });
  expect(inbox.to(olga.email)).toHaveLength(1);
});

test('a visitor’s address and page are checked: an address, and a page on the site’s own origins', async () => {
  const visitor: TestVisitor = await heed.visitor();
  const set = (email: string | null, pageUrl: string) => errorOf(visitor.api.session.contactEmail.mutate({ email, pageUrl }));
  expect(await set('not an address', PAGE)).toMatchObject({ code: 'BAD_REQUEST' });
  expect(await set(addressOf(), 'https://evil.example/help')).toMatchObject({ code: 'BAD_REQUEST', reason: 'page_not_allowed' });
  expect(await set(addressOf(), 'javascript:alert(1)')).toMatchObject({ code: 'BAD_REQUEST', reason: 'page_not_allowed' });
  expect(await set(addressOf(), PAGE)).toBeNull();
  const row = await heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitor.visitorId } });
  expect(row.contactPageUrl).toBe(PAGE);
  expect(await set(null, PAGE)).toBeNull();
  expect((await heed.services.db.visitor.findUniqueOrThrow({ where: { id: visitor.visitorId } })).contactEmail).toBeNull();
});
