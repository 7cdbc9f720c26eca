import type { Prisma } from '../db/client.ts';
import type { Tx } from '../db/types.ts';
import type { Services } from '../services.ts';
import { announceRemoval, deleteRemovedFiles } from './after-removal.ts';
import { NO_REMOVALS, type RemovalCounts } from './removal-counts.ts';
import { removeConversations, type DoomedConversation } from './remove-conversations.ts';
import { subjectHash, type ErasureSubject } from './subject-hash.ts';

/** Who asked for an erasure: an owner in the console, or the site's server with an API key. */
export type ErasureActor = { kind: 'operator'; operatorId: string } | { kind: 'api_key'; keyId: string };

/** What an erasure answers, the first time and every time after (the audit record's content). */
export interface ErasureResult {
  erasedAt: string;
  subject: ErasureSubject['kind'];
  counts: RemovalCounts;
}

/** An erasure holds its rows while the file store deletes their bytes: a bucket's round trips, not a query's. */
const ERASE_TIMEOUT_MS = 60_000;

/**
 * Erases everything Heed holds about one visitor of a site — for a verified user id, every
 * visitor (browser) that user was identified in: conversations with all they left behind (see
 * removeConversations), the visitor's whole event log, emails to or about them, and the visitor
 * rows with their identity, contact address and pages. Attachments' bytes are deleted before the
 * commit (a store that fails fails the erasure, which then changes nothing). After it, their
 * open streams end and their tokens are refused like forged ones (the visitor row is gone).
 *
 * One content-free `ErasureRecord` stays (kinds and counts, the actor, a keyed hash of the
 * subject). Idempotent: asked again, with nothing of the subject left, it answers that
 * record; an id Heed never knew answers zero counts.
 * @example await eraseVisitorData(services, { siteId, subject: { kind: 'user', userId: 'u-42' }, actor: { kind: 'api_key', keyId } });
 */
export async function eraseVisitorData(
  s: Services,
  q: { siteId: string; subject: ErasureSubject; actor: ErasureActor },
): Promise<ErasureResult> {
  const hash = subjectHash(s.config.HEED_SECRET, q.siteId, q.subject);
  const erased = await s.db.$transaction(
    async (tx) => {
      const visitorIds = await lockVisitors(tx, q.siteId, q.subject);
      if (visitorIds.length === 0) return null;
      // their whole log: the events of their conversations and the rest, which goes with the visitor rows
      const events = await tx.event.count({ where: { visitorId: { in: visitorIds } } });
      const conversations = await tx.$queryRaw<DoomedConversation[]>`
        SELECT id::text, "visitorId"::text AS "visitorId" FROM "Conversation"
        WHERE "visitorId" = ANY(${visitorIds}::uuid[]) ORDER BY id FOR UPDATE`;
      const removal = await removeConversations(tx, conversations);
      // emails to them that no conversation names any more (those about their conversations went with them)
      const emails = await tx.$executeRaw`
        DELETE FROM "EmailOutbox" WHERE "visitorId" = ANY(${visitorIds}::uuid[])
          OR (kind = 'visitor_reply' AND recipient IN (SELECT "contactEmail" FROM "Visitor" WHERE id = ANY(${visitorIds}::uuid[])))`;
      await tx.$executeRaw`DELETE FROM "Visitor" WHERE id = ANY(${visitorIds}::uuid[])`;
      const counts: RemovalCounts = { ...removal.counts, visitors: visitorIds.length, events, emails: removal.counts.emails + emails };
      await deleteRemovedFiles(s, removal);
      const record = await tx.erasureRecord.create({
        data: {
          siteId: q.siteId,
          subject: q.subject.kind,
          subjectHash: hash,
          actorKind: q.actor.kind,
          actorId: q.actor.kind === 'operator' ? q.actor.operatorId : q.actor.keyId,
          counts: counts as unknown as Prisma.InputJsonValue,
        },
        select: { createdAt: true },
      });
      return { removal: { ...removal, visitorIds }, result: { erasedAt: record.createdAt.toISOString(), subject: q.subject.kind, counts } };
    },
    { timeout: ERASE_TIMEOUT_MS, maxWait: 10_000 },
  );
  if (!erased) return earlierErasure(s, q.siteId, q.subject, hash);
  await announceRemoval(s, erased.removal);
  await s.bus.erased(erased.removal.visitorIds).catch((err: unknown) => s.logger.warn({ err }, 'erasure: could not end the streams'));
  s.logger.info({ subject: q.subject.kind, actor: q.actor.kind, visitors: erased.result.counts.visitors }, 'visitor data erased');
  return erased.result;
}

/** Locks the subject's visitor rows (one user may have been identified in several browsers). */
async function lockVisitors(tx: Tx, siteId: string, subject: ErasureSubject): Promise<string[]> {
  const rows =
    subject.kind === 'user'
      ? await tx.$queryRaw<{ id: string }[]>`
          SELECT id::text FROM "Visitor" WHERE "siteId" = ${siteId}::uuid AND "externalId" = ${subject.userId} ORDER BY id FOR UPDATE`
      : await tx.$queryRaw<{ id: string }[]>`
          SELECT id::text FROM "Visitor" WHERE "siteId" = ${siteId}::uuid AND id = ${subject.visitorId}::uuid FOR UPDATE`;
  return rows.map((r) => r.id);
}

/** The answer to a repeated request: the latest record of this subject, or zero counts for one Heed never knew. */
async function earlierErasure(s: Services, siteId: string, subject: ErasureSubject, hash: string): Promise<ErasureResult> {
  const record = await s.db.erasureRecord.findFirst({
    where: { siteId, subjectHash: hash },
    orderBy: { createdAt: 'desc' },
    select: { createdAt: true, counts: true },
  });
  if (!record) return { erasedAt: new Date().toISOString(), subject: subject.kind, counts: { ...NO_REMOVALS } };
  return { erasedAt: record.createdAt.toISOString(), subject: subject.kind, counts: { ...NO_REMOVALS, ...(record.counts as object) } };
}
