import { Prisma } from '../../db/client.ts';

import type { ListFilter } from '../../shared/list-filters.ts';

export { LIST_FILTERS, type ListFilter } from '../../shared/list-filters.ts';

/**
 * Visitor messages waiting for the pipeline (`OpenItems.awaitingReply`), a few hundred rows by
 * Message(state, createdAt), in conversations nobody holds (an operator's conversation waits for
 * the person, so it is not live). "Held" is a primary-key probe per waiting message, as a scalar
 * subquery so PostgreSQL cannot turn it into a scan: as `EXCEPT SELECT id … WHERE "heldById" IS
 * NOT NULL` (or an anti-join) it read all 100,000 conversations (2,254 buffers, 11–16 ms on every
 * narrow filter) for none held.
 */
const AWAITING_IDS = Prisma.sql`SELECT m."conversationId" FROM "Message" m
  WHERE m.state IN ('pending', 'claimed') AND m.role = 'user'
    AND (SELECT h."heldById" FROM "Conversation" h WHERE h.id = m."conversationId") IS NULL`;
/**
 * Conversations whose run is claimed or streaming within its lease. Only a conversation's
 * latest run can be: a claim marks every older one `abandoned` in the same transaction.
 */
const RUNNING_IDS = Prisma.sql`SELECT "conversationId" FROM "Run" WHERE status IN ('claimed', 'streaming') AND "leaseUntil" > now()`;

/**
 * Live, as a set of ids: exactly `toConversationView`'s `live` (a claimed or streaming run
 * within its lease, or visitor messages awaiting a reply in a conversation nobody holds). The narrow filters take "not live"
 * off their candidates with EXCEPT rather than testing each conversation: as a condition on
 * `c`, PostgreSQL misjudged it as matching most rows and scanned every conversation (58 ms,
 * 4,800 buffers, for 500 live ones).
 */
const LIVE_IDS = Prisma.sql`${AWAITING_IDS} UNION ${RUNNING_IDS}`;

/** Open for the team: open, or snoozed until a time that has passed (`item.ts` reads it the same way). */
const OPEN = Prisma.sql`(c.status = 'open' OR (c.status = 'snoozed' AND c."snoozedUntil" <= now()))`;

/** A filter: its rule over `c` and `orr`, and for the narrow ones the small set of conversation ids that may match. */
export interface FilterSql {
  /** ids of the only conversations that may match (a statement for a MATERIALIZED CTE), or null: any may */
  candidates: Prisma.Sql | null;
  where: Prisma.Sql;
}

/**
 * Each filter as SQL over the conversation `c` and this operator's (`operatorId`) read marker `orr`, stating
 * the same rule as the item it keeps (test/console/conversations-list.test.ts checks every
 * kept item against it):
 * - `live`: attention `live`;
 * - `input_needed`: attention `input_needed`: not live, and the open question is newer than
 *   this operator's read marker (`isInputNeeded`);
 * - `failed`: the item's `failed`: the latest run failed and nothing is live;
 * - `unread`: `isUnread` against this operator's read marker (a reply newer than what they
 *   read), whatever the higher-priority state;
 * - `waiting`: the item's `waitingForPerson` (the assistant asked for a person, nobody took it
 *   over yet), whatever its attention state: the operators' queue (the list orders it oldest
 *   wait first, see list-query.ts);
 * - `mine`: assigned to this operator and open (a snooze that ran out is open);
 * - `unassigned`: waiting for a person, open, and given to nobody: the queue nobody picked up
 *   (the assistant's own conversations are not a person's to take);
 * - `snoozed`: snoozed until a time still to come; `resolved`: resolved.
 * The narrow filters name their candidates through a small index (messages by state, runs by
 * status) or table (open questions); the list reads those first (a MATERIALIZED CTE, so the
 * planner cannot turn it into a scan of every conversation) and sorts the few that match.
 */
export function filterSql(filter: ListFilter, operatorId: string): FilterSql {
  switch (filter) {
    case 'all':
      return { candidates: null, where: Prisma.sql`TRUE` };
    case 'live':
      return { candidates: LIVE_IDS, where: Prisma.sql`TRUE` };
    case 'input_needed':
      // only the questions this operator has not read (a probe of their marker each, before any
      // conversation is read): at the bench's seed 487 of 1,000 conversations read and sorted, not all
      return {
        candidates: Prisma.sql`SELECT ir."conversationId" FROM "InputRequest" ir
          WHERE ir.status = 'open' AND ir."createdAt" > COALESCE((SELECT o."lastReadAt" FROM "OperatorRead" o
            WHERE o."operatorId" = ${operatorId}::uuid AND o."conversationId" = ir."conversationId"), '-infinity')
          EXCEPT (${LIVE_IDS})`,
        where: Prisma.sql`EXISTS (SELECT 1 FROM "InputRequest" ir WHERE ir."conversationId" = c.id AND ir.status = 'open'
                    AND (orr."lastReadAt" IS NULL OR ir."createdAt" > orr."lastReadAt"))`,
      };
    case 'failed':
      // the batches failed right now (a retry or the next claim moves them on), not every run that ever failed
      return {
        candidates: Prisma.sql`SELECT "conversationId" FROM "Message" WHERE state = 'failed' EXCEPT (${LIVE_IDS})`,
        where: Prisma.sql`EXISTS (SELECT 1 FROM "Run" lr WHERE lr."conversationId" = c.id AND lr.fence = c.fence AND lr.status = 'failed')`,
      };
    case 'waiting':
      // Conversation(waitingSince) holds the few waiting ones
      return {
        candidates: Prisma.sql`SELECT id FROM "Conversation" WHERE "waitingSince" IS NOT NULL`,
        where: Prisma.sql`c."waitingSince" IS NOT NULL`,
      };
    case 'mine':
      return {
        candidates: Prisma.sql`SELECT id FROM "Conversation" WHERE "assigneeId" = ${operatorId}::uuid`,
        where: Prisma.sql`c."assigneeId" = ${operatorId}::uuid AND ${OPEN}`,
      };
    case 'unassigned':
      return {
        candidates: Prisma.sql`SELECT id FROM "Conversation" WHERE "waitingSince" IS NOT NULL AND "assigneeId" IS NULL`,
        where: Prisma.sql`c."waitingSince" IS NOT NULL AND c."assigneeId" IS NULL AND ${OPEN}`,
      };
    case 'snoozed':
      return {
        candidates: Prisma.sql`SELECT id FROM "Conversation" WHERE status = 'snoozed' AND "snoozedUntil" > now()`,
        where: Prisma.sql`c.status = 'snoozed' AND c."snoozedUntil" > now()`,
      };
    case 'resolved':
      // resolved conversations pile up: read newest activity first until a page is found
      return { candidates: null, where: Prisma.sql`c.status = 'resolved'` };
    case 'unread':
      return {
        candidates: null,
        where: Prisma.sql`c."lastAssistantAt" IS NOT NULL AND (orr."lastReadAt" IS NULL OR c."lastAssistantAt" > orr."lastReadAt")`,
      };
  }
}
