import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { enqueueEmails } from '../../api/src/email/enqueue.ts';
import { startEmailTimers } from '../../api/src/email/email-timers.ts';
import { createMailer, type Mailer } from '../../api/src/email/mailer.ts';
import { ChildWorker } from '../support/child-worker.ts';
import { closedPort } from '../support/closed-port.ts';
import { TestHeed } from '../support/harness.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';
import { emailPasses, outbox } from './helpers.ts';

let heed: TestHeed;
let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await SmtpInbox.start();
  heed = await TestHeed.start({
    workers: 0,
    env: { SMTP_URL: inbox.url, EMAIL_PASS_MS: '100', EMAIL_LEASE_MS: '2000', EMAIL_RETRY_MS: '20' },
  });
});
afterAll(async () => {
  await heed?.stop();
  await inbox?.stop();
});

/** An operator with a pending invitation, and its email queued (as console.operators.invite does). */
async function queuedInvitation() {
  const token = randomUUID();
  const email = `invitee-${randomUUID().slice(0, 8)}@example.test`;
  const op = await heed.services.db.operator.create({
    data: {
      email,
      name: 'Invitee',
      inviteTokenHash: createHash('sha256').update(token).digest('hex'),
      inviteExpiresAt: new Date(Date.now() + 3600_000),
    },
  });
  await enqueueEmails(heed.services.db, [
    {
      kind: 'invitation',
      dedupeKey: `invitation:${token}`,
      recipient: email,
      operatorId: op.id,
      dueAt: new Date(),
      payload: { token, consoleUrl: `${heed.url}/` },
    },
  ]);
  const [row] = await outbox(heed, { operatorId: op.id });
  return { email, row: row!, operatorId: op.id };
}

const rowOf = (operatorId: string) => outbox(heed, { operatorId }).then((rows) => rows[0]!);

test('an SMTP server that is down: the email is retried with backoff, then failed with the error’s kind, and the worker carries on', async () => {
  const down = `smtp://127.0.0.1:${await closedPort()}`;
  const { email, operatorId } = await queuedInvitation();
  const timers = startEmailTimers({ ...heed.services, config: { ...heed.config, SMTP_URL: down } });
  try {
    const row = await heed.until('the email to fail for good', async () => {
      const r = await rowOf(operatorId);
      return r.status === 'failed' && r;
    });
    expect(row).toMatchObject({ attempts: 5, payload: null, sentAt: null });
    expect(row.lastError).toMatch(/^E[A-Z]+$/);
  } finally {
    await timers.stop();
  }
  expect(inbox.to(email)).toEqual([]);
  // nothing crashed: the next email goes out through a server that answers
  const ok = await queuedInvitation();
  const passes = emailPasses(heed);
  expect(await passes.send()).toMatchObject({ sent: 1 });
  passes.close();
  expect((await inbox.next((m) => m.to.includes(ok.email))).subject).toBe('Your invitation to Heed');
  const lines = heed.logs.filter((l) => l.includes('email not sent'));
  expect(lines.length).toBeGreaterThanOrEqual(5);
  expect(lines.join('\n')).not.toContain('@example.test');
});

test('a sender whose claim lapsed records nothing: the row is sent once, by the sender that holds it', async () => {
  const { email, operatorId } = await queuedInvitation();
  // a sender that hangs in the middle of its send (it never reaches the server)
  let finish = () => {};
  const hung: Mailer = {
    send: () => new Promise<void>((resolve) => (finish = resolve)),
    close: () => {},
  };
  const stuck = emailPasses(heed, hung);
  const stuckPass = stuck.send();
  await heed.until('the stuck sender to claim the row', async () => (await rowOf(operatorId)).attempts === 1);
  // its lease (EMAIL_LEASE_MS) lapses; another sender takes the row and sends it
  await heed.services.db.emailOutbox.updateMany({ where: { operatorId }, data: { leaseUntil: new Date(Date.now() - 1) } });
  const live = emailPasses(heed);
  expect(await live.send()).toMatchObject({ sent: 1 });
  live.close();
  expect(await rowOf(operatorId)).toMatchObject({ status: 'sent', attempts: 2 });
  // the stuck send ends as if the server took it: it records nothing, the row stays the other's
  finish();
  expect(await stuckPass).toMatchObject({ sent: 1 });
  expect(await rowOf(operatorId)).toMatchObject({ status: 'sent', attempts: 2 });
  expect(heed.logs.some((l) => l.includes('email sent after its claim lapsed'))).toBe(true);
  // a restarted sender finds nothing to send
  const restarted = emailPasses(heed);
  expect(await restarted.send()).toEqual({ sent: 0, cancelled: 0, retrying: 0, failed: 0 });
  restarted.close();
  expect(inbox.to(email)).toHaveLength(1);
});

test('a send the server does not answer is given up well within its lease, and retried: the email arrives once', async () => {
  const { email, operatorId } = await queuedInvitation();
  const release = inbox.hold();
  const passes = emailPasses(heed, createMailer(heed.config));
  const before = inbox.dataStarted;
  const closed = inbox.closedCount;
  const pass = passes.send();
  await heed.until('the message to reach the server', () => inbox.dataStarted > before);
  expect(await pass).toMatchObject({ sent: 0, retrying: 1 });
  // the sender gave up and left: only then does the server answer, so the held message is never accepted
  await inbox.closedConnections(closed + 1);
  // a silent socket times out at a quarter of the lease, and every send is aborted at half of it
  expect(await rowOf(operatorId)).toMatchObject({
    status: 'pending',
    attempts: 1,
    lastError: expect.stringMatching(/^(ETIMEDOUT|EABORT)$/),
  });
  release();
  await heed.until('the retry to fall due', async () => (await rowOf(operatorId)).dueAt.getTime() <= Date.now());
  expect(await passes.send()).toMatchObject({ sent: 1 });
  passes.close();
  expect(await rowOf(operatorId)).toMatchObject({ status: 'sent', attempts: 2 });
  expect(inbox.to(email)).toHaveLength(1);
});

test.skipIf(isEmbeddedTestRun())(
  'a worker killed in the middle of a send: its row is sent once, by another worker after the lease',
  async () => {
    const { email, operatorId } = await queuedInvitation();
    const release = inbox.hold();
    const before = inbox.dataStarted;
    const child = await ChildWorker.start(heed.childEnv({ EMAIL_LEASE_MS: '4000', WORKER_NICE: '0' }), { startWithinMs: 60_000 });
    try {
      await heed.until('the child worker to reach the server', () => inbox.dataStarted > before, 30_000);
      const closedBefore = inbox.closedCount;
      await child.kill();
      await inbox.closedConnections(closedBefore + 1);
    } finally {
      release();
      await child.kill();
    }
    expect(await rowOf(operatorId)).toMatchObject({ status: 'pending', attempts: 1 });
    // the dead worker's lease lapses, then a sender here takes the row
    const timers = startEmailTimers(heed.services);
    try {
      await inbox.next((m) => m.to.includes(email), 30_000);
      const row = await heed.until('the send recorded', async () => {
        const r = await rowOf(operatorId);
        return r.status === 'sent' && r;
      });
      expect(row.attempts).toBe(2);
    } finally {
      await timers.stop();
    }
    expect(inbox.to(email)).toHaveLength(1);
  },
);
