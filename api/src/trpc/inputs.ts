import { z } from 'zod';
import { TITLE_MAX } from '../titles/fallback-title.ts';

/** Longest message a visitor can send, in characters. */
export const MESSAGE_MAX = 4000;

export const uuid = z.string().uuid();

/** Client-chosen idempotency key: letters, digits, `-` and `_`, like a UUID or ULID. */
export const clientMessageId = z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

export const messageContent = z
  .string()
  .max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

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

/** Event-log ids travel as decimal strings (they are bigints). */
export const eventId = z.string().regex(/^\d{1,19}$/);
