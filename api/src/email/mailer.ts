import { createTransport } from 'nodemailer';
import type { Config } from '../config.ts';

/** One email as the sender hands it over: plain text, with the headers every Heed email carries. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  /** `List-Unsubscribe` and its one-click companion */
  headers: Record<string, string>;
  /** stable per outbox row (`<id@domain>`): a send repeated after a crash is the same message to mail clients */
  messageId: string;
}

/** What the sender pass sends through; tests and production alike get the SMTP one. */
export interface Mailer {
  /** resolves once the server took the message; rejects with nodemailer's error (see sendErrorKind) */
  send(email: OutgoingEmail, signal: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * The SMTP server of `SMTP_URL` (`smtp://user:pass@host:587` upgrades with STARTTLS when the
 * server offers it, `smtps://…:465` is TLS from the start), one connection per send (sends are
 * few, and a pool would hold connections an idle deployment never needs); null without
 * SMTP_URL: Heed sends no email then. Each wait (connecting, the greeting, a silent socket) is
 * bounded by a quarter of EMAIL_LEASE_MS, and the sender aborts a send at half of it, so a send
 * always ends while its rows are still the sender's. Nodemailer's own logging stays off: it
 * would print addresses.
 * @example const mailer = createMailer(config); await mailer?.send(email, AbortSignal.timeout(30_000));
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'EMAIL_FROM' | 'EMAIL_LEASE_MS'>): Mailer | null {
  if (!config.SMTP_URL) return null;
  const wait = Math.max(500, Math.floor(config.EMAIL_LEASE_MS / 4));
  const transport = createTransport(
    { url: config.SMTP_URL, connectionTimeout: wait, greetingTimeout: wait, socketTimeout: wait, logger: false },
    { from: config.EMAIL_FROM },
  );
  return {
    async send(email, signal) {
      await transport.sendMail({ ...email, signal });
    },
    close: () => transport.close(),
  };
}

/** The domain of a Message-ID: EMAIL_FROM's, else `heed.invalid`. */
export function messageIdDomain(emailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(emailFrom)?.[1];
  return domain ?? 'heed.invalid';
}

/**
 * What went wrong with a send, as `lastError` keeps it and a log line may show it: the SMTP
 * reply code (`smtp 550`) or the error's kind (`ECONNECTION`, `ETIMEDOUT`, `EABORT`), never the
 * server's words (they often quote the address) nor any of the message.
 */
export function sendErrorKind(err: unknown): { kind: string; permanent: boolean } {
  const e = (err ?? {}) as { responseCode?: unknown; code?: unknown; permanent?: unknown };
  if (typeof e.responseCode === 'number') return { kind: `smtp ${e.responseCode}`, permanent: e.permanent === true };
  const code = typeof e.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(e.code) ? e.code : 'error';
  return { kind: code, permanent: false };
}
