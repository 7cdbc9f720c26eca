import { Prisma } from '../db/client.ts';
import type { Services } from '../services.ts';

/**
 * Records that the visitor is typing after `after`, their newest message, while it still
 * waits for its run: the batch then waits up to DEBOUNCE_MS past this keystroke for the rest
 * of their words (the typing-aware debounce, chat/schedule/due-batches.ts). Naming the message
 * is what keeps typing *before* a send from delaying it: a signal about an older message, or
 * one that overtook its own send, changes nothing. Answers whether the wait moved.
 *
 * One statement, no event: nobody is shown that the visitor types, and a lost signal costs
 * only a reply that comes a moment early.
 * @example await noteTyping(s, { visitorId, conversationId, after: sent.clientMessageId })
 */
export async function noteTyping(s: Services, input: { visitorId: string; conversationId: string; after: string }): Promise<boolean> {
  const moved = await s.sql.rows<{ id: string }>(Prisma.sql`
    UPDATE "Conversation" c SET "typingAt" = statement_timestamp()
    WHERE c.id = ${input.conversationId}::uuid AND c."visitorId" = ${input.visitorId}::uuid
      AND EXISTS (
        SELECT 1 FROM (
          SELECT m."clientMessageId", m.state FROM "Message" m
          WHERE m."conversationId" = c.id AND m.role = 'user'
          ORDER BY m.seq DESC LIMIT 1
        ) newest
        WHERE newest."clientMessageId" = ${input.after} AND newest.state = 'pending')
    RETURNING c.id`);
  return moved.length > 0;
}
