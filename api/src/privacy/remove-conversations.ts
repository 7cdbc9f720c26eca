import type { Tx } from '../db/types.ts';
import { countCascadedRows, NO_REMOVALS, type RemovalCounts } from './removal-counts.ts';

/** What a removal leaves for after its commit: bytes, Redis keys and listeners to tell. */
export interface Removal {
  counts: RemovalCounts;
  /** the attachments' keys in the file store */
  storeKeys: string[];
  /** the removed runs: a streaming reply's text is kept in Redis under its run */
  runIds: string[];
  conversationIds: string[];
  /** the visitors whose streams must hear of it */
  visitorIds: string[];
}

/** A conversation to remove, with its visitor (whose log holds its events). */
export interface DoomedConversation {
  id: string;
  visitorId: string;
}

/**
 * Deletes conversations and everything they left behind, in the caller's transaction: their
 * messages, runs, questions, todos, attachments' rows, notes, read markers, unanswered-question
 * entries, title checks and unsolicited requests (foreign keys cascade from the conversation),
 * plus what names them without a key: the visitor's log events of them (which carry copies of
 * messages and titles) and the emails queued or sent about them. The caller has locked the rows
 * (`FOR UPDATE`) and deletes the file store's bytes (`storeKeys`) before it commits.
 */
export async function removeConversations(
  tx: Tx,
  conversations: readonly DoomedConversation[],
  /** `count: false`: what cascades is not counted (the retention sweep records none of it, and saves six counts a batch) */
  opts: { count?: boolean } = {},
): Promise<Removal> {
  const ids = conversations.map((c) => c.id);
  const visitorIds = [...new Set(conversations.map((c) => c.visitorId))];
  if (ids.length === 0) return { counts: { ...NO_REMOVALS }, storeKeys: [], runIds: [], conversationIds: [], visitorIds: [] };
  const cascaded = opts.count === false ? {} : await countCascadedRows(tx, ids);
  const stored = await tx.$queryRaw<
    { storeKey: string }[]
  >`SELECT "storeKey" FROM "Attachment" WHERE "conversationId" = ANY(${ids}::uuid[])`;
  const runs = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM "Run" WHERE "conversationId" = ANY(${ids}::uuid[])`;
  const events = await tx.$executeRaw`
    DELETE FROM "Event" WHERE "visitorId" = ANY(${visitorIds}::uuid[]) AND "conversationId" = ANY(${ids}::uuid[])`;
  const emails = await tx.$executeRaw`DELETE FROM "EmailOutbox" WHERE "conversationId" = ANY(${ids}::uuid[])`;
  await tx.$executeRaw`DELETE FROM "Conversation" WHERE id = ANY(${ids}::uuid[])`;
  return {
    counts: {
      ...NO_REMOVALS,
      ...cascaded,
      conversations: ids.length,
      runs: runs.length,
      events,
      attachments: stored.length,
      files: stored.length,
      emails,
    },
    storeKeys: stored.map((s) => s.storeKey),
    runIds: runs.map((r) => r.id),
    conversationIds: ids,
    visitorIds,
  };
}
