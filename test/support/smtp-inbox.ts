import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './harness.ts';

/** A mail the inbox took: who it was for, and the parsed message (headers, subject, text). */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  headers: ParsedMail['headers'];
  messageId: string | undefined;
  /** a header's value as sent (unfolded), by its lower-case name */
  header(name: string): string | undefined;
}

/**
 * A real SMTP server on a loopback port (no authentication, no TLS) that keeps every mail it
 * accepted, parsed. A mail counts once the server answered its DATA with 250: a sender cut off
 * before that (killed, aborted) delivered nothing, exactly as with a real server. `hold` keeps
 * the server from answering DATA until the test lets it, for a sender caught mid-send.
 * @example const inbox = await SmtpInbox.start(); env.SMTP_URL = inbox.url; await inbox.next((m) => m.to.includes(a));
 */
export class SmtpInbox {
  readonly mails: ReceivedMail[] = [];
  /** DATA commands begun (a sender reached the message itself), accepted or not */
  dataStarted = 0;
  /** errors on connections (e.g. ECONNRESET from a killed sender), by code */
  readonly connectionErrors: string[] = [];
  private held: Promise<void> | null = null;
  /** the mails `next` returned already */
  private readonly taken = new Set<ReceivedMail>();
  /** connections that closed: a mail whose sender left before the server's answer was not accepted */
  private readonly closed = new Set<string>();

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpInbox> {
    let inbox: SmtpInbox | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      onClose(session) {
        inbox?.closed.add(session.id);
      },
      onData(stream, session, callback) {
        inbox!.dataStarted++;
        const hold = inbox!.held;
        simpleParser(stream)
          .then(async (mail) => {
            await hold;
            if (inbox!.closed.has(session.id)) return callback(new Error('the sender left before the answer'));
            inbox!.mails.push({
              to: [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? '')),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              headers: mail.headers,
              messageId: mail.messageId,
              header: (name) =>
                mail.headerLines
                  .find((h) => h.key === name)
                  ?.line.slice(name.length + 1)
                  .replace(/\r?\n[ \t]+/g, ' ')
                  .trim(),
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
    // A sender killed mid-connection resets its socket: a real server notes it and carries on.
    server.on('error', (err: NodeJS.ErrnoException) => inbox?.connectionErrors.push(err.code ?? err.message));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    inbox = new SmtpInbox(server, (server.server.address() as AddressInfo).port);
    return inbox;
  }

  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Mails addressed to `address`, in the order they arrived. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  /** The first mail not returned by `next` before that matches `predicate`, once it arrived (polling). */
  async next(predicate: (m: ReceivedMail) => boolean = () => true, timeoutMs = 15_000): Promise<ReceivedMail> {
    const mail = await waitUntil('a mail', () => this.mails.find((m) => !this.taken.has(m) && predicate(m)), timeoutMs);
    this.taken.add(mail);
    return mail;
  }

  /** How many connections to this server have closed so far (every sender leaves after its mail). */
  get closedCount(): number {
    return this.closed.size;
  }

  /** Resolves once `count` connections in all have closed (a sender cut off mid-send left). */
  closedConnections(count: number): Promise<true> {
    return waitUntil('a sender to leave', () => this.closed.size >= count);
  }

  /** Accepted DATA waits until the returned function is called (a sender is held mid-send). */
  hold(): () => void {
    let release = () => {};
    this.held = new Promise((resolve) => (release = resolve));
    return () => {
      this.held = null;
      release();
    };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const url = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!url) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return url;
}
