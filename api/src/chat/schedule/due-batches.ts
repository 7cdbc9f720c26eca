import { Prisma } from '../../db/client.ts';
import type { RawSql } from '../../db/raw-sql.ts';

/** Whose conversation it is: what a run's limits and claim need, read with the schedule. */
export interface ConversationOwner {
  siteId: string;
  visitorId: string;
}

export interface DueBatches {
  /** conversations whose batch is due now, most overdue first */
  due: string[];
  /** the owner of each conversation in `due` (one round trip less before each claim) */
  owners: Map<string, ConversationOwner>;
  /** the batch due next (a pending batch: the others are due at once), or null when none waits */
  next: NextBatch | null;
}

export interface NextBatch {
  conversationId: string;
  owner: ConversationOwner;
  /** ms from the end of the poll until it is due */
  inMs: number;
}

/** How long a pending batch waits for more messages. */
export interface BatchTiming {
  /** after the newest message, when the visitor is not typing */
  settleMs: number;
  /** after the visitor's last keystroke past the newest message */
  debounceMs: number;
  /** after the oldest message, whatever happens */
  maxWaitMs: number;
}

/**
 * When a conversation's pending batch is due (the typing-aware debounce): `settle` after its
 * newest message, or `debounce` after the visitor's last keystroke when they typed after that
 * message (`Conversation.typingAt`, aliased `c`), whichever is later; never later than
 * `maxWait` after its oldest message (continuous typing still gets an answer). A lone message
 * is asked after a moment; a visitor who keeps typing gets one answer to all of it.
 *
 * An aggregate over the conversation's pending `Message` rows, aliased `m`, grouped with `c`;
 * the claim checks it too (claim-batch.ts `onlyIfDue`), so the two can never disagree.
 */
export const pendingDueAtSql = (t: BatchTiming) => Prisma.sql`LEAST(
    GREATEST(max(m."createdAt") + make_interval(secs => ${t.settleMs / 1000}),
      CASE WHEN c."typingAt" > max(m."createdAt") THEN c."typingAt" + make_interval(secs => ${t.debounceMs / 1000}) END),
    min(m."createdAt") + make_interval(secs => ${t.maxWaitMs / 1000}))`;

/**
 * Which conversations need a run, derived from durable rows only (so scheduling survives
 * any restart and any Redis loss):
 * - pending messages are due as {@link pendingDueAtSql} says;
 * - a batch whose run lost its lease (its worker died) is due at once;
 * - a pending proactive request (an intent, a check-in) is due at once.
 * Conversations with a run inside its lease are skipped (one run per conversation), and so are
 * conversations an operator holds: their messages wait for the operator, or for hand back.
 */
export async function dueBatches(
  sql: RawSql,
  opts: BatchTiming & { limit: number /** conversations to leave out (waiting on a limit) */; exclude?: readonly string[] },
): Promise<DueBatches> {
  const rows = await sql.rows<{ id: string; wait_ms: number; siteId: string; visitorId: string }>(Prisma.sql`
    WITH batches AS (
      SELECT m."conversationId" AS id, ${pendingDueAtSql(opts)} AS due_at
      FROM "Message" m JOIN "Conversation" c ON c.id = m."conversationId"
      WHERE m.state = 'pending' GROUP BY m."conversationId", c."typingAt"
      UNION ALL
      SELECT r."conversationId", r."leaseUntil" FROM "Run" r
      WHERE r.status IN ('claimed', 'streaming') AND r."leaseUntil" <= now()
      UNION ALL
      SELECT p."conversationId", p."createdAt" FROM "ProactiveRequest" p WHERE p.status = 'pending'
    )
    -- the wait from the end of this statement (clock_timestamp), not its start (now()): a worker sleeps it
    -- after the statement, whose planning and execution (milliseconds under load) were already spent
    SELECT b.id, (extract(epoch FROM min(b.due_at) - clock_timestamp()) * 1000)::float8 AS wait_ms, c."siteId", c."visitorId"
    FROM batches b
    JOIN "Conversation" c ON c.id = b.id AND c."heldById" IS NULL
    WHERE NOT EXISTS (
      SELECT 1 FROM "Run" r WHERE r."conversationId" = b.id
        AND r.status IN ('claimed', 'streaming') AND r."leaseUntil" > now())
      AND b.id <> ALL(${opts.exclude ?? []}::uuid[])
    GROUP BY b.id, c."siteId", c."visitorId"
    ORDER BY wait_ms
    LIMIT ${opts.limit}`);
  const dueRows = rows.filter((r) => r.wait_ms <= 0);
  const next = rows.find((r) => r.wait_ms > 0);
  const ownerOf = (r: (typeof rows)[number]) => ({ siteId: r.siteId, visitorId: r.visitorId });
  return {
    due: dueRows.map((r) => r.id),
    owners: new Map(dueRows.map((r) => [r.id, ownerOf(r)])),
    next: next ? { conversationId: next.id, owner: ownerOf(next), inMs: Math.ceil(next.wait_ms) } : null,
  };
}
