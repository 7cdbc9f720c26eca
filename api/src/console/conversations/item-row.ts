import { Prisma } from '../../db/client.ts';

/**
 * One conversation as the console's list reads it, in ONE statement: the row, its site's name,
 * its visitor, its holder, this operator's read marker, the latest run (the one holding the conversation's
 * fence: claims bump the fence and insert the run in one transaction, so it is always the
 * newest), whether visitor messages await a reply, the open question, and the message count.
 */
export interface ItemRow {
  id: string;
  siteId: string;
  siteName: string;
  title: string | null;
  titleSource: 'first_message' | 'generated' | 'manual' | 'fixed' | null;
  excerpt: string | null;
  lastAssistantAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  visitorId: string;
  visitorExternalId: string | null;
  visitorName: string | null;
  visitorTimeZone: string;
  /** THIS operator's read marker (OperatorRead), never the visitor's */
  operatorReadAt: Date | null;
  runId: string | null;
  runStatus: 'claimed' | 'streaming' | 'completed' | 'failed' | 'awaiting_input' | 'abandoned' | null;
  runLeaseUntil: Date | null;
  awaitingReply: boolean;
  requestId: string | null;
  requestQuestion: string | null;
  requestChoices: string[] | null;
  requestAllowFreeText: boolean | null;
  requestCreatedAt: Date | null;
  messageCount: number;
  /** files sent in it (the paperclip) */
  attachmentCount: number;
  /** the visitor marked it private: the console shows no words of it */
  private: boolean;
  /** the assistant asked for a person (`handoff_to_human`) and nobody took it over yet */
  waitingSince: Date | null;
  /** the operator holding it (took it over), or null */
  heldById: string | null;
  heldByName: string | null;
  /** the operator it is assigned to, or null */
  assigneeId: string | null;
  assigneeName: string | null;
  status: 'open' | 'resolved' | 'snoozed';
  snoozedUntil: Date | null;
  /** when the visitor last wrote (null: never) */
  lastVisitorAt: Date | null;
  /** the database's clock, so a run's lease is judged on the clock that wrote it */
  dbNow: Date;
}

/**
 * `SELECT … FROM` of {@link ItemRow} for the conversations of the caller's CTE `page(id)`,
 * aliasing the conversation `c`; the caller adds its WHERE (scope) and ORDER BY.
 *
 * The statement is driven from `page`: it is written first, and every other part is a lookup
 * by key (Conversation and Site and Visitor by primary key, OperatorRead's primary key, Run
 * (conversationId, fence), Message (conversationId, …), InputRequest (status, conversationId)),
 * about 15 buffers a row. Beyond join_collapse_limit (8) PostgreSQL keeps the written order, so
 * joins added here later still start from the page's ids: the cost stays bounded by the page
 * size. (Written as `FROM "Conversation" c … WHERE c.id IN (SELECT id FROM page)`, one join past
 * that limit put the page last and read all 100,000 conversations first: 3.8 s instead of ~10 ms.)
 * @example Prisma.sql`WITH page (id) AS (SELECT ${id}::uuid) ${itemsOfPage(operatorId)}`
 */
export function itemsOfPage(operatorId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT c.id, c."siteId", s.name AS "siteName", c.title, c."titleSource"::text AS "titleSource", c.excerpt,
      c."lastAssistantAt", c."createdAt", c."updatedAt",
      c."visitorId", v."externalId" AS "visitorExternalId", v.name AS "visitorName", v."timeZone" AS "visitorTimeZone",
      orr."lastReadAt" AS "operatorReadAt",
      lr.id AS "runId", lr.status::text AS "runStatus", lr."leaseUntil" AS "runLeaseUntil",
      aw.yes IS NOT NULL AS "awaitingReply",
      ir.id AS "requestId", ir.question AS "requestQuestion", ir.choices AS "requestChoices",
      ir."allowFreeText" AS "requestAllowFreeText", ir."createdAt" AS "requestCreatedAt",
      (SELECT count(*)::int FROM "Message" mc WHERE mc."conversationId" = c.id AND ${realMessage('mc')}) AS "messageCount",
      c."attachmentCount", c.private, c."waitingSince", c."heldById",
      (SELECT ho.name FROM "Operator" ho WHERE ho.id = c."heldById") AS "heldByName",
      c."assigneeId", (SELECT ao.name FROM "Operator" ao WHERE ao.id = c."assigneeId") AS "assigneeName",
      c.status::text AS status, c."snoozedUntil",
      (SELECT lv."createdAt" FROM "Message" lv WHERE lv."conversationId" = c.id AND lv.role = 'user'
        ORDER BY lv.seq DESC LIMIT 1) AS "lastVisitorAt",
      now() AS "dbNow"
    FROM page
    JOIN "Conversation" c ON c.id = page.id
    JOIN "Site" s ON s.id = c."siteId"
    JOIN "Visitor" v ON v.id = c."visitorId"
    LEFT JOIN "OperatorRead" orr ON orr."operatorId" = ${operatorId}::uuid AND orr."conversationId" = c.id
    LEFT JOIN "Run" lr ON lr."conversationId" = c.id AND lr.fence = c.fence
    LEFT JOIN LATERAL (
      SELECT true AS yes FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role = 'user' AND m.state IN ('pending', 'claimed') LIMIT 1) aw ON true
    LEFT JOIN LATERAL (
      SELECT id, question, choices, "allowFreeText", "createdAt" FROM "InputRequest"
      WHERE "conversationId" = c.id AND status = 'open' ORDER BY "createdAt" DESC LIMIT 1) ir ON true`;
}

/**
 * A message someone wrote: the visitor's, the assistant's or an operator's words. Not a notice
 * ("Ana joined"), not a failed reply's placeholder, not the wordless request for a reply's rest.
 */
export const realMessage = (alias: string) =>
  Prisma.sql`${Prisma.raw(alias)}.role <> 'notice' AND ${Prisma.raw(alias)}.error IS NULL AND ${Prisma.raw(alias)}.provenance IS DISTINCT FROM 'continue'`;
