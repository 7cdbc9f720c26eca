import { deleteStoredFiles } from '../attachments/sweep-unsent.ts';
import type { FileStore } from '../attachments/store/file-store.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../logging/logger.ts';

/** What deleting a site removes, for the confirmation dialog and the answer. */
export interface SiteDeletion {
  conversations: number;
  visitors: number;
  messages: number;
}

type Reader = Pick<Db, 'conversation' | 'visitor' | 'message'>;

/** Counts what a delete of the site would remove now. */
export async function countSiteContents(db: Reader, siteId: string): Promise<SiteDeletion> {
  const [conversations, visitors, messages] = await Promise.all([
    db.conversation.count({ where: { siteId } }),
    db.visitor.count({ where: { siteId } }),
    db.message.count({ where: { conversation: { siteId } } }),
  ]);
  return { conversations, visitors, messages };
}

/**
 * A whole site's deletion, 60 s at most: a large site's cascade (every visitor,
 * conversation, message, run, event) runs in the one transaction.
 */
const DELETE_TIMEOUT_MS = 60_000;

/**
 * Deletes a site and everything of it (visitors, conversations, messages, runs, events,
 * title checks, usage: the schema cascades) in one transaction: all of it or, on any
 * failure, nothing. The site's row is locked first, so no visitor or conversation can be
 * added to it between the counts and the delete (their inserts wait on the lock, then fail).
 * The bytes of its attachments leave `files` after the commit (a store is no part of the
 * transaction): a store that fails then is logged, and leaves unused bytes nobody can reach.
 * Answers what was removed, or null when there is no such site.
 */
export async function deleteSite(db: Db, siteId: string, files: FileStore, logger?: Logger): Promise<SiteDeletion | null> {
  const deleted = await db.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM "Site" WHERE id = ${siteId}::uuid FOR UPDATE`;
      if (locked.length === 0) return null;
      const counts = await countSiteContents(tx, siteId);
      const stored = await tx.attachment.findMany({ where: { siteId }, select: { storeKey: true } });
      await tx.site.delete({ where: { id: siteId }, select: { id: true } });
      return { counts, storeKeys: stored.map((a) => a.storeKey) };
    },
    { timeout: DELETE_TIMEOUT_MS, maxWait: 10_000 },
  );
  if (!deleted) return null;
  await deleteStoredFiles(files, deleted.storeKeys, logger);
  return deleted.counts;
}
