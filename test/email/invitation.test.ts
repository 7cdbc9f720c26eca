import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startEmailTimers } from '../../api/src/email/email-timers.ts';
import type { PassTimer } from '../../api/src/timers/pass-timer.ts';
import { consoleClient, signedInOperator, type TestOperator } from '../support/console.ts';
import type { TestHeed } from '../support/harness.ts';
import { linkIn, type SmtpInbox } from '../support/smtp-inbox.ts';
import { rawCall } from '../console/raw-call.ts';
import { emailStack, outbox } from './helpers.ts';

let heed: TestHeed;
let inbox: SmtpInbox;
let stop: () => Promise<unknown>;
let timers: PassTimer;
let owner: TestOperator;
beforeAll(async () => {
  ({ heed, inbox, stop } = await emailStack({ EMAIL_PASS_MS: '100' }, { workers: 0 }));
  timers = startEmailTimers(heed.services);
  owner = await signedInOperator(heed.services, heed.url, { role: 'owner', name: 'Olga' });
});
afterAll(async () => {
  await timers?.stop();
  await stop?.();
});

const emailOf = (what: string) => `${what}-${randomUUID().slice(0, 8)}@example.test`;

test('an invitation is emailed with the link the console shows; the link works, and the token leaves the outbox once sent', async () => {
  const email = emailOf('nia');
  const answer = await owner.api.console.operators.invite.mutate({ email, name: 'Nia', role: 'agent', sites: 'all' });
  expect(answer.emailed).toBe(true);

  const mail = await inbox.next((m) => m.to.includes(email));
  expect(mail.subject).toBe('Your invitation to Heed');
  expect(mail.text).toContain('Hello Nia');
  expect(mail.text).toContain('as an agent');
  const link = linkIn(mail, `${heed.url}/admin/#/invite/`);
  expect(link).toBe(answer.inviteUrl);
  // every email offers to stop them, in its text and to mail clients
  const unsubscribe = linkIn(mail, 'http://127.0.0.1:3000/email/unsubscribe?t=');
  expect(mail.header('list-unsubscribe')).toBe(`<${unsubscribe}>`);
  expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

  // the sender records the send once the server took it
  const row = await heed.until('the send recorded', async () =>
    (await outbox(heed, { operatorId: answer.operator.id })).find((r) => r.status !== 'pending'),
  );
  expect(row).toMatchObject({ kind: 'invitation', status: 'sent', attempts: 1, payload: null, lastError: null });
  expect(mail.messageId).toBe(`<${row!.id}@localhost>`);

  const token = link.split('/').at(-1)!;
  const accepted = await rawCall(
    heed.url,
    'console.auth.acceptInvite',
    'mutation',
    { token, name: 'Nia', password: `nia-password-${randomUUID()}` },
    { origin: heed.url },
  );
  const cookie = accepted.headers.get('set-cookie')!.split(';')[0]!;
  expect(await consoleClient(heed.url, cookie).console.auth.me.query()).toMatchObject({ email, role: 'agent' });
});

test('an invitation replaced before it went out is not mailed: only the newest link is', async () => {
  const email = emailOf('late');
  await timers.stop();
  const first = await owner.api.console.operators.invite.mutate({ email, name: 'Late', role: 'agent' });
  const second = await owner.api.console.operators.invite.mutate({ email, name: 'Late', role: 'owner' });
  timers = startEmailTimers(heed.services);
  const mail = await inbox.next((m) => m.to.includes(email));
  expect(linkIn(mail, `${heed.url}/admin/#/invite/`)).toBe(second.inviteUrl);
  expect(mail.text).toContain('as an owner');
  const rows = await heed.until('both rows done', async () => {
    const all = await outbox(heed, { operatorId: first.operator.id });
    return all.every((r) => r.status !== 'pending') && all;
  });
  expect(rows.map((r) => [r.status, r.payload])).toEqual([
    ['cancelled', null],
    ['sent', null],
  ]);
  expect(inbox.to(email)).toHaveLength(1);
});

test('log lines name ids and counts, never an address or a link', async () => {
  expect(heed.logs.some((l) => l.includes('"emails"'))).toBe(true);
  const text = heed.logs.join('\n');
  expect(text).not.toMatch(/@example\.test|#\/invite\/|unsubscribe\?t=/);
});
