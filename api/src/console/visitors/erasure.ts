import type { Db } from '../../db/client.ts';
import type { SiteScope } from '../../operators/site-access.ts';
import type { ErasureSubject } from '../../privacy/subject-hash.ts';
import { conversationInScope } from '../conversations/in-scope.ts';

/** What erasing a conversation's visitor would remove, for the console's confirmation. */
export interface ErasurePreview {
  visitorId: string;
  identified: boolean;
  /** the host's user id: every visitor (browser) that user was identified in goes too */
  externalId: string | null;
  counts: { conversations: number; messages: number; attachments: number };
}

/**
 * Whose data erasing from this conversation removes (the host's user when the visitor is
 * identified, else the visitor) and the site it is of; null outside the operator's sites or
 * gone (the console answers NOT_FOUND for both).
 */
export async function erasureSubjectOf(
  db: Db,
  q: { conversationId: string; sites: SiteScope },
): Promise<{ siteId: string; visitorId: string; subject: ErasureSubject } | null> {
  const conv = await conversationInScope(db, q);
  if (!conv) return null;
  const visitor = await db.visitor.findUnique({ where: { id: conv.visitorId }, select: { externalId: true } });
  if (!visitor) return null;
  const subject: ErasureSubject =
    visitor.externalId === null ? { kind: 'visitor', visitorId: conv.visitorId } : { kind: 'user', userId: visitor.externalId };
  return { siteId: conv.siteId, visitorId: conv.visitorId, subject };
}

/** The confirmation's figures: what goes, counted over every visitor of the subject. */
export async function erasurePreview(db: Db, q: { conversationId: string; sites: SiteScope }): Promise<ErasurePreview | null> {
  const found = await erasureSubjectOf(db, q);
  if (!found) return null;
  const visitors = found.subject.kind === 'user' ? { siteId: found.siteId, externalId: found.subject.userId } : { id: found.visitorId };
  const [conversations, messages, attachments] = await Promise.all([
    db.conversation.count({ where: { visitor: visitors } }),
    db.message.count({ where: { conversation: { visitor: visitors }, role: { in: ['user', 'assistant', 'operator'] } } }),
    db.attachment.count({ where: { conversation: { visitor: visitors } } }),
  ]);
  return {
    visitorId: found.visitorId,
    identified: found.subject.kind === 'user',
    externalId: found.subject.kind === 'user' ? found.subject.userId : null,
    counts: { conversations, messages, attachments },
  };
}
