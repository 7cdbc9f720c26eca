import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startEmailTimers } from '../../api/src/email/email-timers.ts';
import { signedInOperator } from '../support/console.ts';
import { makeClient, TestHeed } from '../support/harness.ts';
import { errorOf } from '../handoff/helpers.ts';
import { askForPerson, handoffSite } from './helpers.ts';

let heed: TestHeed;
beforeAll(async () => {
  heed = await TestHeed.start({ env: { EMAIL_ALERT_DELAY_MS: '0', EMAIL_PASS_MS: '50' } });
  await handoffSite(heed);
});
afterAll(() => heed?.stop());

test('without SMTP_URL nothing pretends to send: no email is queued, the console and the widget are told email is off', async () => {
  const timers = startEmailTimers(heed.services);
  expect(heed.logs.some((l) => l.includes('email is off: no SMTP_URL'))).toBe(true);
  const owner = await signedInOperator(heed.services, heed.url, { role: 'owner' });
  await heed.services.db.operator.update({ where: { id: owner.id }, data: { passwordHash: 'scrypt$signed-up' } });

  const invited = await owner.api.console.operators.invite.mutate({
    email: `new-${randomUUID().slice(0, 8)}@example.test`,
    name: 'New',
    role: 'agent',
  });
  expect(invited).toMatchObject({ emailed: false, inviteUrl: expect.stringContaining('/admin/#/invite/') });

  const session = await makeClient(heed.url, null).session.start.mutate({ siteKey: heed.siteKey });
  expect(session.emailReplies).toBe(false);
  const { visitor, conversationId } = await askForPerson(heed);
  expect(
    await errorOf(visitor.api.session.contactEmail.mutate({ email: 'ana@example.com', pageUrl: 'https://shop.example/' })),
  ).toMatchObject({
    code: 'BAD_REQUEST',
    reason: 'email_off',
  });
  await owner.api.console.conversations.takeOver.mutate({ conversationId });
  await owner.api.console.conversations.reply.mutate({ conversationId, text: 'Hello!', clientMessageId: randomUUID() });
  await timers.stop();
  expect(await heed.services.db.emailOutbox.count()).toBe(0);
});
