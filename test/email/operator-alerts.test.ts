import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runAlertPass } from '../../api/src/email/alert-pass.ts';
import { startEmailTimers } from '../../api/src/email/email-timers.ts';
import { signedInOperator, type TestOperator } from '../support/console.ts';
import type { TestHeed } from '../support/harness.ts';
import { linkIn, type SmtpInbox } from '../support/smtp-inbox.ts';
import { askForPerson, dueNow, emailPasses, emailStack, handoffSite, outbox } from './helpers.ts';

let heed: TestHeed;
let inbox: SmtpInbox;
let stop: () => Promise<unknown>;
let passes: ReturnType<typeof emailPasses>;
let siteId: string;
beforeAll(async () => {
  ({ heed, inbox, stop } = await emailStack({ EMAIL_ALERT_DELAY_MS: '1500', EMAIL_PASS_MS: '100' }));
  siteId = await handoffSite(heed);
  passes = emailPasses(heed);
});
afterAll(async () => {
  passes?.close();
  await stop?.();
});

/** A signed-up operator (their invitation accepted: invited ones get no alerts). */
async function operator(role: 'owner' | 'agent', name: string): Promise<TestOperator> {
  const op = await signedInOperator(heed.services, heed.url, {
    role,
    name,
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`,
  });
  await heed.services.db.operator.update({ where: { id: op.id }, data: { passwordHash: 'scrypt$signed-up' } });
  return op;
}

const assign = (conversationId: string, op: TestOperator) =>
  heed.services.db.conversation.update({ where: { id: conversationId }, data: { assigneeId: op.id, assignedAt: new Date() } });

/** Queues what the events call for as if the delay were long: the test decides when rows fall due. */
const queueLater = () => runAlertPass({ db: heed.services.db, config: { EMAIL_ALERT_DELAY_MS: 600_000 } });

/** Nobody else's rows get in the way of the next test (each test makes its own conversations). */
const settleOutbox = () => heed.services.db.emailOutbox.updateMany({ where: { status: 'pending' }, data: { status: 'cancelled' } });

test('a conversation waiting for its assignee: they are emailed once the delay passed, with its site, title, wait and console link', async () => {
  const ana = await operator('agent', 'Ana');
  const { conversationId } = await askForPerson(heed);
  await assign(conversationId, ana);
  const timers = startEmailTimers(heed.services);
  try {
    const mail = await inbox.next((m) => m.to.includes(ana.email));
    expect(mail.subject).toBe('A visitor needs you on Test site');
    expect(mail.text).toContain('Hello Ana,\n\nA conversation needs you');
    expect(mail.text).toContain('* Test site: Can I talk to a human, please?\n  Waiting for a person for less than a minute.');
    expect(linkIn(mail, 'http://127.0.0.1:3000/admin/')).toBe(`http://127.0.0.1:3000/admin/#/conversations/${conversationId}`);
    const { waitingSince } = await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    const [row] = await heed.until('the send recorded', async () => {
      const rows = await outbox(heed, { conversationId, operatorId: ana.id });
      return rows[0]?.status === 'sent' && rows;
    });
    // not before the delay: a conversation seen meanwhile would have sent nothing
    expect(row!.dueAt.getTime()).toBe(waitingSince!.getTime() + 1500);
    expect(row!.sentAt!.getTime()).toBeGreaterThanOrEqual(row!.dueAt.getTime());
  } finally {
    await timers.stop();
  }
  // passes again find the same event and queue nothing more
  expect(await passes.alerts()).toBe(0);
  expect(await outbox(heed, { conversationId })).toHaveLength(1);
});

test('an operator who marks the conversation read before the delay is not emailed', async () => {
  const bo = await operator('agent', 'Bo');
  const { conversationId } = await askForPerson(heed);
  await assign(conversationId, bo);
  expect(await queueLater()).toBe(1);
  await bo.api.console.conversations.markRead.mutate({ conversationId });
  await dueNow(heed);
  expect(await passes.send()).toMatchObject({ sent: 0, cancelled: 1 });
  expect(await outbox(heed, { conversationId })).toMatchObject([{ status: 'cancelled', operatorId: bo.id, payload: null }]);
  // seen: a later pass does not queue it again
  expect(await passes.alerts()).toBe(0);
  expect(inbox.to(bo.email)).toEqual([]);
});

test('with nobody assigned, the site’s owners are told (each as they wish), agents are not; a private conversation shows no title', async () => {
  await settleOutbox();
  const olga = await operator('owner', 'Olga');
  const quiet = await operator('owner', 'Quiet');
  await quiet.api.console.profile.setAlerts.mutate({ email: false });
  const agent = await operator('agent', 'Cy');
  const hidden = await askForPerson(heed);
  await hidden.visitor.api.conversation.setPrivate.mutate({ conversationId: hidden.conversationId, private: true });
  const taken = await askForPerson(heed);
  await queueLater();
  for (const { conversationId } of [hidden, taken])
    expect((await outbox(heed, { conversationId })).map((r) => r.operatorId)).toEqual([olga.id]);
  // Olga takes one over before the delay: it waits no more, so nobody is emailed about it
  await olga.api.console.conversations.takeOver.mutate({ conversationId: taken.conversationId });
  await dueNow(heed);
  expect(await passes.send()).toMatchObject({ sent: 1, cancelled: 1 });
  const mail = await inbox.next((m) => m.to.includes(olga.email));
  expect(mail.text).toContain(`* Test site: Private conversation\n`);
  expect(mail.text).not.toContain('Can I talk to a human');
  expect(mail.text).not.toContain(taken.conversationId);
  expect(inbox.to(quiet.email)).toEqual([]);
  expect(inbox.to(agent.email)).toEqual([]);
  expect(siteId).toMatch(/^[0-9a-f-]{36}$/);
});

test('one email per operator per pass lists every conversation due for them', async () => {
  await settleOutbox();
  const dee = await operator('agent', 'Dee');
  const first = await askForPerson(heed);
  const second = await askForPerson(heed);
  await assign(first.conversationId, dee);
  await assign(second.conversationId, dee);
  await queueLater();
  await dueNow(heed);
  await passes.send();
  const mail = await inbox.next((m) => m.to.includes(dee.email));
  expect(mail.subject).toBe('2 conversations need you');
  expect(mail.text).toContain(`#/conversations/${first.conversationId}`);
  expect(mail.text).toContain(`#/conversations/${second.conversationId}`);
  expect((await outbox(heed, { operatorId: dee.id })).map((r) => r.status)).toEqual(['sent', 'sent']);
  expect(inbox.to(dee.email)).toHaveLength(1);
});

test('a visitor writing to a held conversation alerts its holder, unless the holder replied meanwhile', async () => {
  await settleOutbox();
  const eve = await operator('agent', 'Eve');
  const { visitor, conversationId } = await askForPerson(heed);
  await eve.api.console.conversations.takeOver.mutate({ conversationId });
  await eve.api.console.conversations.markRead.mutate({ conversationId });
  expect(await queueLater()).toBe(0);

  await visitor.send(conversationId, 'Are you there?');
  expect(await queueLater()).toBe(1);
  await dueNow(heed);
  await passes.send();
  const mail = await inbox.next((m) => m.to.includes(eve.email));
  expect(mail.text).toContain('The visitor wrote less than a minute ago.');

  // the visitor writes again; Eve replies before the delay: her reply read their words
  await eve.api.console.conversations.markRead.mutate({ conversationId });
  await eve.api.console.conversations.reply.mutate({ conversationId, text: 'Here I am.', clientMessageId: randomUUID() });
  await visitor.send(conversationId, 'Hello?');
  expect(await queueLater()).toBe(1);
  await eve.api.console.conversations.reply.mutate({ conversationId, text: 'Still here.', clientMessageId: randomUUID() });
  await dueNow(heed);
  expect(await passes.send()).toMatchObject({ sent: 0, cancelled: 1 });
  expect(inbox.to(eve.email)).toHaveLength(1);
});
