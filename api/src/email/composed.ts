import type { SigningKeys } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { OutgoingEmail } from './mailer.ts';
import type { ClaimedEmail } from './outbox-claims.ts';

/** What rendering an email reads: the rows it names, the settings, the keys its links are signed with. */
export interface ComposeDeps {
  db: Db;
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT' | 'EMAIL_ALERT_DELAY_MS'>;
  keys: SigningKeys;
  now?: Date;
}

/** An email rendered from claimed rows at send time, and what becomes of each row. */
export interface Composed {
  /** null: nothing to send, every row's reason is gone */
  email: Omit<OutgoingEmail, 'messageId'> | null;
  /** the rows the email stands for: `sent` with it */
  covered: ClaimedEmail[];
  /** the rows whose reason no longer holds (seen, no longer waiting, unsubscribed…): `cancelled` */
  cancelled: ClaimedEmail[];
}

/** Every row cancelled, nothing sent. */
export const cancelAll = (rows: readonly ClaimedEmail[]): Composed => ({ email: null, covered: [], cancelled: [...rows] });

/** The lines that end every email: why it came, and the link that stops it. */
export const footer = (why: string, unsubscribeUrl: string) => `\n\n--\n${why}\nStop these emails: ${unsubscribeUrl}\n`;

/**
 * A duration as people say it: "less than a minute", "4 minutes", "2 hours".
 * @example howLong(4 * 60_000) // '4 minutes'
 */
export function howLong(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.floor(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** An event time a row's payload carries (`at`, ISO); null when it is missing or unreadable. */
export function eventTime(row: ClaimedEmail): Date | null {
  const at = row.payload?.at;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}
