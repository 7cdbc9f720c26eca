import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';
import type { EmailKind } from './enqueue.ts';

/** Sends an email may take before it is `failed` for good. */
export const MAX_ATTEMPTS = 5;

/** An outbox row a sender holds: `attempts` as its claim left it is the sender's fence. */
export interface ClaimedEmail {
  id: string;
  kind: EmailKind | string;
  attempts: number;
  recipient: string;
  siteId: string | null;
  conversationId: string | null;
  operatorId: string | null;
  visitorId: string | null;
  payload: Record<string, unknown> | null;
  dueAt: Date;
}

const RETURNING = Prisma.sql`o.id, o.kind, o.attempts, o.recipient, o."siteId", o."conversationId", o."operatorId", o."visitorId", o.payload, o."dueAt"`;
const FREE = Prisma.sql`status = 'pending' AND attempts < ${MAX_ATTEMPTS} AND ("leaseUntil" IS NULL OR "leaseUntil" < now())`;

/**
 * Claims the due emails in one statement: rows no other sender holds (`FOR UPDATE SKIP LOCKED`,
 * an unexpired lease), each leased for `leaseMs` with its attempt counted. An operator's other
 * queued alerts about a conversation that is due come along, even before their time: the one
 * email about that conversation covers them, so the operator is not told twice within minutes.
 * @example const rows = await claimDueEmails(db, { leaseMs: 60_000, limit: 100 });
 */
export function claimDueEmails(db: DbLike, opts: { leaseMs: number; limit: number }): Promise<ClaimedEmail[]> {
  return db.$queryRaw<ClaimedEmail[]>`
    WITH due AS (
      SELECT id, kind, "operatorId", "conversationId" FROM "EmailOutbox"
      WHERE ${FREE} AND "dueAt" <= now()
      ORDER BY "dueAt", id LIMIT ${opts.limit}
      FOR UPDATE SKIP LOCKED
    ), along AS (
      SELECT id FROM "EmailOutbox"
      WHERE kind = 'operator_alert' AND ${FREE} AND "dueAt" > now()
        AND ("operatorId", "conversationId") IN (SELECT "operatorId", "conversationId" FROM due WHERE kind = 'operator_alert')
      FOR UPDATE SKIP LOCKED
    )
    UPDATE "EmailOutbox" o SET "leaseUntil" = now() + ${opts.leaseMs}::int * interval '1 millisecond', attempts = o.attempts + 1
    WHERE o.id IN (SELECT id FROM due UNION ALL SELECT id FROM along)
    RETURNING ${RETURNING}`;
}

/** The claims still this sender's: pending, unexpired, and not claimed again since (the attempts fence). */
export async function stillOurs(db: DbLike, rows: readonly ClaimedEmail[]): Promise<ClaimedEmail[]> {
  if (rows.length === 0) return [];
  const ours = await db.$queryRaw<{ id: string }[]>`
    SELECT o.id FROM "EmailOutbox" o
    JOIN unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.attempts)}::int[]) AS c(id, attempts)
      ON o.id = c.id::uuid AND o.attempts = c.attempts
    WHERE o.status = 'pending' AND o."leaseUntil" > now()`;
  const ids = new Set(ours.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id));
}

/**
 * Records the end of claimed rows, only where each is still this sender's (a sender whose
 * lease ran out changes nothing): `sent` (with `sentAt`) or `cancelled`. Either way the
 * payload (an invitation's token) is cleared. Answers how many rows it changed.
 */
export function finishEmails(db: DbLike, rows: readonly ClaimedEmail[], outcome: 'sent' | 'cancelled'): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  const status = outcome === 'sent' ? Prisma.sql`'sent'::"EmailStatus"` : Prisma.sql`'cancelled'::"EmailStatus"`;
  return db.$executeRaw`
    UPDATE "EmailOutbox" o SET status = ${status}, "sentAt" = ${outcome === 'sent' ? Prisma.sql`now()` : Prisma.sql`NULL`},
      payload = NULL, "leaseUntil" = NULL
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.attempts)}::int[]) AS c(id, attempts)
    WHERE o.id = c.id::uuid AND o.attempts = c.attempts AND o.status = 'pending'`;
}

/**
 * A send that failed: each row waits `retryMs · 2^(attempts-1)` and is tried again, or is
 * `failed` (its payload cleared) after MAX_ATTEMPTS, or at once when the server refused the
 * message for good (`permanent`). `lastError` keeps the error's kind only. Fenced like
 * {@link finishEmails}; answers the rows that failed for good.
 */
export async function retryLater(
  db: DbLike,
  rows: readonly ClaimedEmail[],
  error: { kind: string; permanent: boolean },
  retryMs: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  const done = Prisma.sql`(${error.permanent}::boolean OR o.attempts >= ${MAX_ATTEMPTS}::int)`;
  const changed = await db.$queryRaw<{ id: string; status: string }[]>`
    UPDATE "EmailOutbox" o SET
      status = CASE WHEN ${done} THEN 'failed'::"EmailStatus" ELSE 'pending'::"EmailStatus" END,
      "dueAt" = CASE WHEN ${done} THEN o."dueAt" ELSE now() + ${retryMs}::double precision * power(2, o.attempts - 1) * interval '1 millisecond' END,
      payload = CASE WHEN ${done} THEN NULL ELSE o.payload END,
      "leaseUntil" = NULL, "lastError" = ${error.kind.slice(0, 200)}
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.attempts)}::int[]) AS c(id, attempts)
    WHERE o.id = c.id::uuid AND o.attempts = c.attempts AND o.status = 'pending'
    RETURNING o.id, o.status::text AS status`;
  return changed.filter((r) => r.status === 'failed').length;
}

/** Claims a stopping sender did not get to: free again at once, the attempt not counted. */
export function releaseClaims(db: DbLike, rows: readonly ClaimedEmail[]): Promise<number> {
  if (rows.length === 0) return Promise.resolve(0);
  return db.$executeRaw`
    UPDATE "EmailOutbox" o SET "leaseUntil" = NULL, attempts = o.attempts - 1
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.attempts)}::int[]) AS c(id, attempts)
    WHERE o.id = c.id::uuid AND o.attempts = c.attempts AND o.status = 'pending'`;
}

/** Rows whose every attempt was claimed by a sender that never came back (a crash each time): `failed`. */
export function failAbandoned(db: DbLike): Promise<number> {
  return db.$executeRaw`
    UPDATE "EmailOutbox" SET status = 'failed', "lastError" = COALESCE("lastError", 'lease_expired'), payload = NULL, "leaseUntil" = NULL
    WHERE status = 'pending' AND attempts >= ${MAX_ATTEMPTS} AND "leaseUntil" < now()`;
}
