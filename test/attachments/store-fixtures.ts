import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../api/src/db/client.ts';
import { newStoreKey, type FileStore } from '../../api/src/attachments/store/file-store.ts';

/** Where an attachment belongs: a site, its visitor and their conversation. */
export interface Thread {
  siteId: string;
  visitorId: string;
  conversationId: string;
}

/**
 * A new site with one visitor and one conversation, as rows.
 * @example const thread = await newThread(db);
 */
export async function newThread(db: Db): Promise<Thread> {
  const site = await db.site.create({ data: { key: `files-${randomUUID().slice(0, 8)}`, name: 'Files' }, select: { id: true } });
  const visitor = await db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
  const conversation = await db.conversation.create({ data: { siteId: site.id, visitorId: visitor.id }, select: { id: true } });
  return { siteId: site.id, visitorId: visitor.id, conversationId: conversation.id };
}

/** A visitor's message in the thread, for attachments that were sent. */
export async function newMessage(db: Db, thread: Thread, content = 'See the file'): Promise<string> {
  const message = await db.message.create({
    data: { conversationId: thread.conversationId, visitorId: thread.visitorId, role: 'user', content },
    select: { id: true },
  });
  return message.id;
}

/**
 * An attachment as an upload leaves it: its bytes in `files` under a new key, and its row
 * (unsent unless `messageId`; `createdAt` to make it old).
 * @example const a = await storedAttachment(db, files, thread, { createdAt: twoDaysAgo });
 */
export async function storedAttachment(
  db: Db,
  files: FileStore,
  thread: Thread,
  opts: { bytes?: Buffer; mime?: string; messageId?: string; createdAt?: Date } = {},
): Promise<{ id: string; storeKey: string; bytes: Buffer }> {
  const bytes = opts.bytes ?? randomBytes(2_000);
  const mime = opts.mime ?? 'application/pdf';
  const storeKey = newStoreKey();
  await files.put(storeKey, bytes, mime);
  const row = await db.attachment.create({
    data: {
      ...thread,
      messageId: opts.messageId,
      name: 'receipt.pdf',
      mime,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storeKey,
      accessKey: randomBytes(16).toString('hex'),
      createdAt: opts.createdAt,
    },
    select: { id: true },
  });
  return { id: row.id, storeKey, bytes };
}
