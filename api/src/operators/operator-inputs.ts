import { z } from 'zod';
import type { Prisma } from '../db/client.ts';

/** Shortest password an operator may set (also HEED_ADMIN_PASSWORD's minimum). */
export const PASSWORD_MIN = 12;
/** Longest password accepted anywhere: bounds the work a request can ask of the KDF's input step. */
export const PASSWORD_MAX = 200;

/**
 * An operator's email: trimmed and lower-cased (the column stores it so), at most 320
 * characters, `local@domain` without spaces. Deliberately looser than `z.email()`, which
 * refuses the development owner `admin@localhost` and intranet domains; nothing is mailed.
 */
export const operatorEmail = z
  .string()
  .trim()
  .max(320, 'at most 320 characters')
  .regex(/^[^\s@]+@[^\s@.][^\s@]*$/, 'an email address such as ana@example.com')
  .transform((s) => s.toLowerCase());

/** A display name: whitespace collapsed, 1–120 characters, no control characters. */
export const operatorName = z
  .string()
  .max(1000)
  .transform((s) => s.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .max(120, 'at most 120 characters')
      .refine((s) => !/[\u0000-\u001F\u007F-\u009F]/.test(s), 'must not contain control characters'),
  );

/** A password being set (acceptInvite, admin:create): 12–200 characters, not all blank. */
export const newPassword = z
  .string()
  .min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`)
  .refine((s) => s.trim().length > 0, 'must not be blank');

/** A password being checked at sign-in: bounded only (the policy is not revealed to a guesser). */
export const givenPassword = z.string().min(1, 'must not be empty').max(PASSWORD_MAX);

/** A token from a link Heed made (invitation): 32 random bytes in base64url. */
export const linkToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'not a token Heed made');

/** What the console knows of the signed-in operator (`Me`). */
export const ME_SELECT = { id: true, email: true, name: true, role: true } as const satisfies Prisma.OperatorSelect;

/** `Me`: the signed-in operator as console.auth answers it (never a hash or a token). */
export type Me = Prisma.OperatorGetPayload<{ select: typeof ME_SELECT }>;
