import { signingKeys } from '../auth/signing-keys.ts';
import type { Services } from '../services.ts';
import { startPassTimer, type PassTimer } from '../timers/pass-timer.ts';
import { runAlertPass } from './alert-pass.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { runSenderPass } from './sender-pass.ts';

/** The alert pass looks for new events this often at most: an event still gets its full delay, and a busy database is not scanned every few seconds. */
const ALERT_LOOK_MAX_MS = 30_000;

/**
 * Heed's email in a worker process (beside the title and knowledge timers): with SMTP_URL, an
 * alert pass that queues what events call for (alert-pass.ts) and a sender pass every
 * EMAIL_PASS_MS (sender-pass.ts); without it nothing is queued or sent, and the process says
 * once that email is off. Stopping awaits the email being sent, then closes the connection.
 * `mailer` replaces the SMTP transport (tests that need a sender that hangs).
 * @example const email = startEmailTimers(services); … await email.stop();
 */
export function startEmailTimers(s: Pick<Services, 'db' | 'config' | 'logger'>, opts: { mailer?: Mailer } = {}): PassTimer {
  const mailer = opts.mailer ?? createMailer(s.config);
  if (!mailer) {
    s.logger.info('email is off: no SMTP_URL, so Heed emails no invitations, alerts or replies');
    return { stop: async () => {} };
  }
  const { config, logger } = s;
  logger.info(
    { alertDelayMs: config.EMAIL_ALERT_DELAY_MS },
    'email is on: invitations, operator alerts and visitor replies go out by SMTP',
  );
  const alertEvery = Math.max(config.EMAIL_PASS_MS, Math.min(ALERT_LOOK_MAX_MS, Math.floor(config.EMAIL_ALERT_DELAY_MS / 6)));
  const alerts = startPassTimer(
    alertEvery,
    async () => {
      const queued = await runAlertPass(s);
      if (queued > 0) logger.info({ queued }, 'email alerts queued');
    },
    (err) => logger.error({ err }, 'email alert pass failed'),
  );
  const deps = { ...s, mailer, keys: signingKeys(config) };
  const sender = startPassTimer(
    config.EMAIL_PASS_MS,
    async (signal) => {
      const done = await runSenderPass(deps, signal);
      if (done.sent + done.cancelled + done.retrying + done.failed > 0) logger.info({ emails: done }, 'email pass');
    },
    (err) => logger.error({ err }, 'email pass failed'),
  );
  return {
    async stop() {
      await Promise.all([alerts.stop(), sender.stop()]);
      mailer.close();
    },
  };
}
