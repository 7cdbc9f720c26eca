import { Prisma } from '../../db/client.ts';
import { siteScopeSql, type SiteScope } from '../../operators/site-access.ts';
import type { Services } from '../../services.ts';
import { conversationItemsById } from './items-by-id.ts';
import type { ConversationItem } from './item.ts';

/**
 * Marks a conversation read for ONE operator (their `OperatorRead` row): up to its latest
 * activity (`updatedAt`: the visitor's messages too, so an email alert about them is then not
 * sent; marking again without new activity moves nothing and tells no one), or up to
 * `seenAssistantAt` when the console says which reply it showed and a newer one landed
 * meanwhile (that reply stays unread). The marker only moves forward, and the visitor's own
 * `Conversation.lastReadAt` is never touched: the visitor's unread state and every other
 * operator's stay as they were. A real move is announced on the console channel, so the
 * operator's other tabs update. Returns the item as this operator now sees it, or null when
 * the conversation does not exist or lies outside `sites`.
 */
export async function markReadForOperator(
  s: Pick<Services, 'db' | 'bus'>,
  input: { operatorId: string; conversationId: string; sites: SiteScope; seenAssistantAt?: Date },
): Promise<ConversationItem | null> {
  const upTo = input.seenAssistantAt ?? null;
  const moved = await s.db.$queryRaw<{ lastReadAt: Date }[]>`
    INSERT INTO "OperatorRead" ("operatorId", "conversationId", "lastReadAt")
    SELECT ${input.operatorId}::uuid, c.id,
      CASE WHEN c."lastAssistantAt" > ${upTo}::timestamptz THEN ${upTo}::timestamptz
        ELSE GREATEST(c."updatedAt", c."lastAssistantAt") END
    FROM "Conversation" c
    WHERE c.id = ${input.conversationId}::uuid
      AND ${siteScopeSql(input.sites, Prisma.sql`c."siteId"`)}
    ON CONFLICT ("operatorId", "conversationId") DO UPDATE SET "lastReadAt" = EXCLUDED."lastReadAt"
      WHERE "OperatorRead"."lastReadAt" < EXCLUDED."lastReadAt"
    RETURNING "lastReadAt"`;
  if (moved.length > 0) await s.bus.touchConversations([input.conversationId]);
  const [item] = await conversationItemsById(s.db, { operatorId: input.operatorId, ids: [input.conversationId], sites: input.sites });
  return item ?? null;
}
