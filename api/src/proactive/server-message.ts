import { z } from 'zod';
import type { Services } from '../services.ts';
import { transactWithEvents } from '../events/append-events.ts';
import { loadConversationView } from '../conversations/queries.ts';
import { speakToVisitor } from '../conversations/speak-to-visitor.ts';
import { toMessageView } from '../conversations/views.ts';
import { latestConversation, lockVisitor, openConversation } from './target-conversation.ts';
import { hostUserId } from '../identity/verify-identity.ts';

/** Longest server-to-server message, in characters (ProactiveRequest.text holds 2,000). */
export const SERVER_MESSAGE_MAX = 2000;

/** The body of `POST /api/v1/sites/:siteKey/messages`. */
export const serverMessageInput = z.strictObject({
  /** the host's user id, as its identity verification signed it (`Visitor.externalId`) */
  userId: hostUserId,
  text: z
    .string()
    .max(SERVER_MESSAGE_MAX * 2)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(SERVER_MESSAGE_MAX, `at most ${SERVER_MESSAGE_MAX} characters`)
        .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    ),
  /** one of the user's conversations; default: their most recently active one, or a new one */
  conversationId: z.string().uuid().optional(),
});
export type ServerMessageInput = z.infer<typeof serverMessageInput>;

export type ServerMessageResult =
  | { ok: true; conversationId: string; messageId: string }
  | { ok: false; reason: 'user_not_found' | 'conversation_not_found' | 'conversation_limit' };

/**
 * A fixed message from the site's own server to one of its identified users: written at once
 * through THE unread write (`speakToVisitor`, provenance `server`, labelled with the site's
 * name), with its events, and recorded as a delivered ProactiveRequest so the budget counts it
 * (the budget never refuses it: the site's server decided). Only a user id with a verified
 * session (`identifiedAt`) is found: until identity verification has its own issue, anything
 * else is `user_not_found`.
 */
export async function sendServerMessage(
  s: Services,
  key: { id: string; siteId: string; siteName: string },
  input: ServerMessageInput,
): Promise<ServerMessageResult> {
  const visitor = await s.db.visitor.findFirst({
    where: { siteId: key.siteId, externalId: input.userId, identifiedAt: { not: null } },
    select: { id: true },
  });
  if (!visitor) return { ok: false, reason: 'user_not_found' };
  return transactWithEvents(s.db, s.bus, async (tx, emit) => {
    await lockVisitor(tx, visitor.id);
    let conversationId: string | null;
    if (input.conversationId) {
      const own = await tx.conversation.count({ where: { id: input.conversationId, visitorId: visitor.id } });
      if (own === 0) return { ok: false as const, reason: 'conversation_not_found' as const };
      conversationId = input.conversationId;
    } else {
      conversationId =
        (await latestConversation(tx, visitor.id)) ??
        (await openConversation(tx, emit, {
          siteId: key.siteId,
          visitorId: visitor.id,
          maxConversations: s.config.VISITOR_MAX_CONVERSATIONS,
        }));
      if (!conversationId) return { ok: false as const, reason: 'conversation_limit' as const };
    }
    const message = await speakToVisitor(tx, {
      conversationId,
      visitorId: visitor.id,
      role: 'assistant',
      content: input.text,
      provenance: 'server',
      provenanceLabel: key.siteName,
    });
    await tx.proactiveRequest.create({
      data: {
        siteId: key.siteId,
        visitorId: visitor.id,
        conversationId,
        kind: 'server',
        text: input.text,
        status: 'delivered',
        messageId: message.id,
        decidedAt: message.createdAt,
      },
      select: { id: true },
    });
    await tx.siteApiKey.update({ where: { id: key.id }, data: { lastUsedAt: message.createdAt }, select: { id: true } });
    emit(visitor.id, { type: 'message.created', conversationId, message: toMessageView(message) });
    emit(visitor.id, { type: 'conversation.updated', conversationId, conversation: await loadConversationView(tx, conversationId) });
    return { ok: true as const, conversationId, messageId: message.id };
  });
}
