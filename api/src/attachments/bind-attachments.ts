import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import { refuse } from '../errors/refusal.ts';
import { formatBytes } from '../shared/attachment-kinds.ts';
import { toAttachmentView, type AttachmentRow, type AttachmentView } from './attachment-view.ts';

/** Who sends the files: the visitor, or an operator (who may send only what they uploaded). */
export type FileSender = { visitorId: string } | { operatorId: string };

/**
 * Gives uploaded files to the message that sends them, in the order given, inside the send's
 * transaction: only files of this conversation, uploaded by this sender and not sent yet (the
 * WHERE is the rule). Refuses the whole send when one is not (`attachment_unavailable`: another's,
 * sent already, or swept) or when together they pass the site's per-message cap; the
 * transaction then rolls back and every file stays unsent. Counts them on the conversation
 * (the console's paperclip).
 * @example message.attachments = await bindAttachments(tx, { conversationId, messageId, ids, sender: { visitorId }, messageMaxBytes });
 */
export async function bindAttachments(
  tx: RawSql,
  q: { conversationId: string; messageId: string; ids: readonly string[]; sender: FileSender; messageMaxBytes: number },
): Promise<AttachmentView[]> {
  const ids = [...new Set(q.ids)];
  const bySender =
    'visitorId' in q.sender
      ? Prisma.sql`"visitorId" = ${q.sender.visitorId}::uuid AND "operatorId" IS NULL`
      : Prisma.sql`"operatorId" = ${q.sender.operatorId}::uuid`;
  const rows = await tx.rows<AttachmentRow & { position: number }>(Prisma.sql`
    UPDATE "Attachment" SET "messageId" = ${q.messageId}::uuid, position = array_position(${ids}::uuid[], id) - 1
    WHERE id = ANY(${ids}::uuid[]) AND "conversationId" = ${q.conversationId}::uuid AND "messageId" IS NULL AND ${bySender}
    RETURNING id, name, mime, bytes, width, height, "accessKey", position`);
  if (rows.length !== ids.length) {
    throw refuse('bad_request', 'attachment_unavailable', 'A file of this message is not available any more: attach it again.');
  }
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  if (total > q.messageMaxBytes) {
    throw refuse('bad_request', 'message_files_too_large', `A message's files can be up to ${formatBytes(q.messageMaxBytes)} together.`);
  }
  await tx.count(Prisma.sql`
    UPDATE "Conversation" SET "attachmentCount" = "attachmentCount" + ${rows.length} WHERE id = ${q.conversationId}::uuid`);
  return rows.sort((a, b) => a.position - b.position).map((r) => toAttachmentView(r));
}
