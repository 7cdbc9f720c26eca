import { Prisma } from '../db/client.ts';
import type { OperatorRole } from '../db/generated/client.ts';
import type { DbLike } from '../db/types.ts';

/** Events older than this are not emailed about (turning email on does not mail the past). */
export const EVENT_WINDOW = Prisma.raw(`interval '1 day'`);

/**
 * Something an operator may need to hear of: a conversation began waiting for a person
 * (`waiting`, at `waitingSince`), or a visitor wrote to a conversation while it was assigned to
 * or held by them (`message`: the first such message the operator has not read; the ones after
 * it, until the operator reads, are the same event).
 */
export interface AlertEvent {
  event: 'waiting' | 'message';
  conversationId: string;
  siteId: string;
  at: Date;
  /** the visitor's message (`message` events) */
  messageId: string | null;
  operator: { id: string; email: string; role: OperatorRole; siteIds: string[]; allSites: boolean; alerts: Prisma.JsonValue };
}

type Row = Omit<AlertEvent, 'operator'> & {
  operatorId: string;
  email: string;
  role: OperatorRole;
  siteIds: string[];
  allSites: boolean;
  alerts: Prisma.JsonValue;
};

const OPERATOR_COLUMNS = Prisma.raw('o.id AS "operatorId", o.email, o.role::text AS role, o."siteIds", o."allSites", o.alerts');

/**
 * The alert events of the last day that the responsible operator has not read past (their
 * `OperatorRead.lastReadAt`): the conversation's assignee, else its holder, else, for a
 * conversation waiting with nobody assigned, every owner. Only operators who accepted their
 * invitation. Whether each wants email, and still covers the site, the caller decides.
 */
export async function alertEvents(db: DbLike): Promise<AlertEvent[]> {
  const waiting = await db.$queryRaw<Row[]>`
    SELECT 'waiting' AS event, c.id AS "conversationId", c."siteId", c."waitingSince" AS at, NULL AS "messageId", ${OPERATOR_COLUMNS}
    FROM "Conversation" c
    JOIN "Operator" o ON o."passwordHash" IS NOT NULL AND CASE
      WHEN c."assigneeId" IS NOT NULL THEN o.id = c."assigneeId"
      WHEN c."heldById" IS NOT NULL THEN o.id = c."heldById"
      ELSE o.role = 'owner' END
    LEFT JOIN "OperatorRead" r ON r."operatorId" = o.id AND r."conversationId" = c.id
    WHERE c."waitingSince" > now() - ${EVENT_WINDOW}
      AND (r."lastReadAt" IS NULL OR r."lastReadAt" < c."waitingSince")`;
  const messages = await db.$queryRaw<Row[]>`
    SELECT 'message' AS event, c.id AS "conversationId", c."siteId", m."createdAt" AS at, m.id AS "messageId", ${OPERATOR_COLUMNS}
    FROM "Conversation" c
    JOIN "Operator" o ON o.id = COALESCE(c."assigneeId", c."heldById") AND o."passwordHash" IS NOT NULL
    LEFT JOIN "OperatorRead" r ON r."operatorId" = o.id AND r."conversationId" = c.id
    CROSS JOIN LATERAL (
      SELECT m.id, m."createdAt" FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role = 'user'
        AND m."createdAt" > COALESCE(r."lastReadAt", '-infinity'::timestamptz) AND m."createdAt" > now() - ${EVENT_WINDOW}
        -- written to the conversation while it was theirs: what came before is the waiting event's
        AND m."createdAt" > COALESCE(CASE WHEN c."assigneeId" IS NOT NULL THEN c."assignedAt" ELSE c."heldAt" END, '-infinity'::timestamptz)
      ORDER BY m.seq LIMIT 1
    ) m
    WHERE (c."assigneeId" IS NOT NULL OR c."heldById" IS NOT NULL) AND c."updatedAt" > now() - ${EVENT_WINDOW}`;
  return [...waiting, ...messages].map(({ operatorId, email, role, siteIds, allSites, alerts, ...event }) => ({
    ...event,
    operator: { id: operatorId, email, role, siteIds, allSites, alerts },
  }));
}
