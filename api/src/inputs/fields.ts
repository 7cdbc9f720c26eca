import { ATTACHMENTS_PER_MESSAGE } from '../shared/attachment-kinds.ts';
import { z } from 'zod';
import { TITLE_MAX } from '../shared/title-limits.ts';

/** Longest message a visitor can send, in characters. */
export const MESSAGE_MAX = 4000;

/** PostgreSQL text cannot hold NUL: refuse it at the edge rather than fail in the database. */
export const noNul = (s: string) => !s.includes('\u0000');

export const uuid = z.string().uuid();

/** A site's public key (the `data-site` attribute): 1–64 characters, what the column holds, no control characters. */
export const siteKey = z
  .string()
  .min(1)
  .max(64)
  .refine((s) => !/[\u0000-\u001F\u007F]/.test(s), 'must not contain control characters');

/**
 * A visitor token as the widget stored it. Only bounded here: a stale or mangled token is
 * not an input error, `session.start` simply starts a new visitor.
 */
export const visitorToken = z.string().max(300).refine(noNul, 'must not contain NUL characters');

/** Client-chosen idempotency key: letters, digits, `-` and `_`, like a UUID or ULID. */
export const clientMessageId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

/** A message's words when files go with it: they may be none. */
export const messageText = z
  .string()
  .max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`)
  .refine(noNul, 'must not contain NUL characters');

/** The files a message sends: uploads (`POST /files`) not sent yet, in order, each once. */
export const attachmentIds = z
  .array(z.uuid())
  .max(ATTACHMENTS_PER_MESSAGE, `at most ${ATTACHMENTS_PER_MESSAGE} files`)
  .refine((ids) => new Set(ids).size === ids.length, 'each file once');

export const messageContent = z
  .string()
  .max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine(noNul, 'must not contain NUL characters');

/**
 * A title the user sets: whitespace collapsed and trimmed, then 1–64 characters (code
 * points, what the column counts), with something visible and no control characters.
 */
export const conversationTitle = z
  .string()
  .max(1000, `at most ${TITLE_MAX} characters`)
  .transform((s) => s.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .refine((s) => Array.from(s).length <= TITLE_MAX, `at most ${TITLE_MAX} characters`)
      .refine((s) => !/[\u0000-\u001F\u007F-\u009F]/.test(s), 'must not contain control characters')
      .refine((s) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(s), 'must contain a visible character'),
  );

/** An IANA zone the runtime knows (e.g. Europe/Paris). */
export const timeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'unknown IANA time zone');

/** Largest PostgreSQL bigint, the type of event-log ids. */
export const BIGINT_MAX = 9_223_372_036_854_775_807n;

/** Event-log ids travel as decimal strings (they are bigints): 0 to 2^63 - 1. */
export const eventId = z
  .string()
  .regex(/^\d{1,19}$/, 'a decimal event id')
  // zod runs every check even after the regex failed: BigInt() only sees digits
  .refine((s) => !/^\d+$/.test(s) || BigInt(s) <= BIGINT_MAX, 'at most 9223372036854775807');

const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A moment in ISO 8601 with an offset (`2026-11-30T12:00:00.000Z`), from 2000-01-01 to
 * 9999-12-31 UTC. The ISO format alone lets through year 0000 and impossible days, which
 * PostgreSQL's timestamptz refuses with a 500; nothing in Heed predates 2000.
 */
export const timestamp = z.iso.datetime({ offset: true }).refine((s) => {
  const t = Date.parse(s);
  return t >= EARLIEST && t <= LATEST;
}, 'must be a moment from 2000-01-01 to 9999-12-31');
