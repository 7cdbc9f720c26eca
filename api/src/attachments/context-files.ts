import sharp from 'sharp';
import { Prisma } from '../db/client.ts';
import type { RawSql } from '../db/raw-sql.ts';
import type { ContextFile } from '../chat/context/turn-content.ts';
import type { FileStore } from './store/file-store.ts';

/**
 * Longest side of an image sent to a model. Providers scale larger images down themselves
 * (OpenAI to fit 2048×2048, then 768 on the short side), so more pixels only cost upload time.
 */
const MODEL_IMAGE_MAX_SIDE = 2048;

/**
 * The files of a run's messages, by message id, in the order they were attached. Images of the
 * claimed messages carry their bytes as a data URL (scaled to fit {@link MODEL_IMAGE_MAX_SIDE});
 * earlier messages' files are only named. An image whose bytes are gone is named, not shown.
 * @example const files = await filesOfMessages(sql, store, { claimedIds, earlierIds, onMissing });
 */
export async function filesOfMessages(
  sql: RawSql,
  store: FileStore,
  q: { claimedIds: readonly string[]; earlierIds: readonly string[]; onMissing?: (storeKey: string) => void },
): Promise<Map<string, ContextFile[]>> {
  const ids = [...q.claimedIds, ...q.earlierIds];
  const byMessage = new Map<string, ContextFile[]>();
  if (ids.length === 0) return byMessage;
  const rows = await sql.rows<{
    messageId: string;
    name: string;
    mime: string;
    text: string | null;
    storeKey: string;
    width: number | null;
  }>(
    Prisma.sql`
      SELECT "messageId", name, mime, text, "storeKey", width FROM "Attachment"
      WHERE "messageId" = ANY(${ids}::uuid[]) ORDER BY "messageId", position`,
  );
  const claimed = new Set(q.claimedIds);
  await Promise.all(
    rows.map(async (row) => {
      const file: ContextFile = { name: row.name, mime: row.mime, text: row.text };
      if (claimed.has(row.messageId) && row.mime.startsWith('image/')) {
        const bytes = await store.get(row.storeKey);
        if (bytes) file.dataUrl = await modelImage(bytes, row.mime);
        else q.onMissing?.(row.storeKey);
      }
      return [row, file] as const;
    }),
  ).then((files) => {
    for (const [row, file] of files) {
      const list = byMessage.get(row.messageId) ?? [];
      list.push(file);
      byMessage.set(row.messageId, list);
    }
  });
  return byMessage;
}

/** The image as a data URL a model takes: as stored, or scaled down (and GIFs to their first frame as PNG). */
async function modelImage(bytes: Buffer, mime: string): Promise<string> {
  const meta = await sharp(bytes).metadata();
  const large = (meta.width ?? 0) > MODEL_IMAGE_MAX_SIDE || (meta.height ?? 0) > MODEL_IMAGE_MAX_SIDE;
  if (!large && mime !== 'image/gif') return `data:${mime};base64,${bytes.toString('base64')}`;
  const fit = sharp(bytes).resize({ width: MODEL_IMAGE_MAX_SIDE, height: MODEL_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  if (mime === 'image/jpeg') return `data:image/jpeg;base64,${(await fit.jpeg({ quality: 85 }).toBuffer()).toString('base64')}`;
  return `data:image/png;base64,${(await fit.png().toBuffer()).toString('base64')}`;
}
