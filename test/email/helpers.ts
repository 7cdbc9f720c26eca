import { signingKeys } from '../../api/src/auth/signing-keys.ts';
import { runAlertPass } from '../../api/src/email/alert-pass.ts';
import { createMailer, type Mailer } from '../../api/src/email/mailer.ts';
import { runSenderPass, type SenderPassResult } from '../../api/src/email/sender-pass.ts';
import { TestHeed, type HeedOptions, type TestVisitor } from '../support/harness.ts';
import { SmtpInbox } from '../support/smtp-inbox.ts';

/** A stack whose SMTP_URL is a real SMTP server in this process (the inbox). */
export async function emailStack(env: HeedOptions['env'] = {}, opts: Omit<HeedOptions, 'env'> = {}) {
  const inbox = await SmtpInbox.start();
  const heed = await TestHeed.start({ ...opts, env: { SMTP_URL: inbox.url, ...env } });
  return { inbox, heed, stop: async () => Promise.all([heed.stop(), inbox.stop()]) };
}

/**
 * The email passes run by hand, as the worker's timers run them: tests that must know a pass
 * found nothing (an unsubscribed visitor, a seen conversation) run one and look.
 */
export function emailPasses(heed: TestHeed, mailer: Mailer | null = createMailer(heed.config)) {
  const deps = { ...heed.services, mailer: mailer!, keys: signingKeys(heed.config) };
  return {
    alerts: () => runAlertPass(heed.services),
    send: (signal = new AbortController().signal): Promise<SenderPassResult> => runSenderPass(deps, signal),
    close: () => mailer?.close(),
  };
}

/** The outbox rows of a kind, oldest first. */
export const outbox = (heed: TestHeed, where: { kind?: string; conversationId?: string; operatorId?: string; visitorId?: string } = {}) =>
  heed.services.db.emailOutbox.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

/** Makes every pending row of the outbox due now (a test that does not wait out EMAIL_ALERT_DELAY_MS). */
export const dueNow = (heed: TestHeed) =>
  heed.services.db.emailOutbox.updateMany({ where: { status: 'pending' }, data: { dueAt: new Date() } });

/** A visitor asks for a person: the model calls handoff_to_human, then says so; resolves once the reply is stored. */
export async function askForPerson(heed: TestHeed, visitor?: TestVisitor): Promise<{ visitor: TestVisitor; conversationId: string }> {
  const v = visitor ?? (await heed.visitor());
  const conversationId = await v.conversation();
  heed.model.script(
    { toolCalls: [{ name: 'handoff_to_human', arguments: {} }] },
    { text: 'A person from Test site will reply here soon.' },
  );
  await v.send(conversationId, 'Can I talk to a human, please?');
  await heed.until(
    'the hand-off',
    async () => (await heed.services.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).waitingSince !== null,
  );
  await heed.until('the reply', async () => (await heed.services.db.run.count({ where: { conversationId, status: 'completed' } })) === 1);
  return { visitor: v, conversationId };
}

/** The site of the stack, with hand-offs on. */
export async function handoffSite(heed: TestHeed): Promise<string> {
  const { id } = await heed.services.db.site.update({ where: { key: heed.siteKey }, data: { handoffEnabled: true }, select: { id: true } });
  heed.services.sites.clear();
  return id;
}
