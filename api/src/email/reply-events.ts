import type { DbLike } from '../db/types.ts';
import { EVENT_WINDOW } from './alert-events.ts';

/** An operator replied to a visitor who left an address, and the visitor has not read it yet. */
export interface ReplyEvent {
  conversationId: string;
  siteId: string;
  visitorId: string;
  contactEmail: string;
  /** the first operator message the visitor has not read (those after it, until they read, are the same event) */
  messageId: string;
  at: Date;
}

/**
 * The reply events of the last day: conversations with an unread reply (`lastAssistantAt`
 * after the visitor's `lastReadAt`) among which an operator's message (role `operator`) is
 * unread, of visitors with a `contactEmail` who did not unsubscribe (`emailOptOutAt`).
 */
export function replyEvents(db: DbLike): Promise<ReplyEvent[]> {
  return db.$queryRaw<ReplyEvent[]>`
    SELECT c.id AS "conversationId", c."siteId", v.id AS "visitorId", v."contactEmail", m.id AS "messageId", m."createdAt" AS at
    FROM "Conversation" c
    JOIN "Visitor" v ON v.id = c."visitorId" AND v."contactEmail" IS NOT NULL AND v."emailOptOutAt" IS NULL
    CROSS JOIN LATERAL (
      SELECT m.id, m."createdAt" FROM "Message" m
      WHERE m."conversationId" = c.id AND m.role = 'operator' AND m."createdAt" > COALESCE(c."lastReadAt", '-infinity'::timestamptz)
      ORDER BY m.seq LIMIT 1
    ) m
    WHERE c."updatedAt" > now() - ${EVENT_WINDOW} AND c."lastAssistantAt" > COALESCE(c."lastReadAt", '-infinity'::timestamptz)`;
}
