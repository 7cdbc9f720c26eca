import type { Db } from '../../db/client.ts';
import { checkStoreKey, type FileStore } from './file-store.ts';

/** Keys one statement deletes or one page of `keys()` reads: bounded statements whatever a site holds. */
const PAGE = 1_000;

/**
 * Attachment bytes in PostgreSQL's `FileBlob` table: the mode with a database server and no
 * bucket, so a deployment needs nothing more than it already runs. The bytes are part of every
 * backup of the database and of `npm run db:export`. A put is durable once its commit is.
 * @example const files = postgresStore(db); await files.put(newStoreKey(), bytes, 'application/pdf');
 */
export function postgresStore(db: Db): FileStore {
  return {
    mode: 'postgres',
    summary: 'files: PostgreSQL',

    async put(key, bytes) {
      // a Buffer is a Uint8Array over an ArrayBuffer (never a shared one): what Prisma's Bytes is
      const data = bytes as Uint8Array<ArrayBuffer>;
      await db.fileBlob.upsert({ where: { key: checkStoreKey(key) }, create: { key, data }, update: { data }, select: { key: true } });
    },

    async get(key) {
      const row = await db.fileBlob.findUnique({ where: { key: checkStoreKey(key) }, select: { data: true } });
      return row ? Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) : null;
    },

    async delete(keys) {
      keys.forEach(checkStoreKey);
      for (let i = 0; i < keys.length; i += PAGE) {
        await db.fileBlob.deleteMany({ where: { key: { in: keys.slice(i, i + PAGE) } } });
      }
    },

    async *keys() {
      let after: string | undefined;
      for (;;) {
        const rows = await db.fileBlob.findMany({
          where: after === undefined ? {} : { key: { gt: after } },
          select: { key: true },
          orderBy: { key: 'asc' },
          take: PAGE,
        });
        for (const row of rows) yield row.key;
        if (rows.length < PAGE) return;
        after = rows.at(-1)!.key;
      }
    },

    // the database connection is the process's, closed with its services
    async close() {},
  };
}
