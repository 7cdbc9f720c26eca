import { Prisma } from '../db/client.ts';
import type { DbLike } from '../db/types.ts';

/** What an outbox row is for: the sender renders each kind its own way. */
export type EmailKind = 'invitation' | 'operator_alert' | 'visitor_reply';

/** A row to add to the outbox (`EmailOutbox`). */
export interface EmailToQueue {
  kind: EmailKind;
  /** one email per key: the same key again adds nothing (a second pass, a restart, another process) */
  dedupeKey: string;
  /** the address as it was when queued; the sender mails the rows' current address */
  recipient: string;
  dueAt: Date;
  siteId?: string | null;
  conversationId?: string | null;
  operatorId?: string | null;
  visitorId?: string | null;
  /** what the kind needs beyond the rows it names; cleared once the row is done */
  payload?: Record<string, unknown> | null;
}

/**
 * Adds emails to the outbox in one statement, idempotently (`ON CONFLICT ("dedupeKey") DO
 * NOTHING`): whoever finds an event again, in this process or another, queues nothing more.
 * Answers how many rows were new.
 * @example await enqueueEmails(db, [{ kind: 'invitation', dedupeKey: `invite:${hash}`, recipient, dueAt: new Date() }]);
 */
export async function enqueueEmails(db: DbLike, emails: readonly EmailToQueue[]): Promise<number> {
  if (emails.length === 0) return 0;
  const rows = emails.map(
    (e) => Prisma.sql`(gen_random_uuid(), ${e.kind}, ${e.dedupeKey}, ${e.recipient}, ${e.siteId ?? null}::uuid,
      ${e.conversationId ?? null}::uuid, ${e.operatorId ?? null}::uuid, ${e.visitorId ?? null}::uuid,
      ${e.payload ? JSON.stringify(e.payload) : null}::jsonb, ${e.dueAt}::timestamptz)`,
  );
  return db.$executeRaw`
    INSERT INTO "EmailOutbox" (id, kind, "dedupeKey", recipient, "siteId", "conversationId", "operatorId", "visitorId", payload, "dueAt")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("dedupeKey") DO NOTHING`;
}
