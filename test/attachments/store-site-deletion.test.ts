import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDb, type Db } from '../../api/src/db/client.ts';
import type { FileStore } from '../../api/src/attachments/store/file-store.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';
import { postgresStore } from '../../api/src/attachments/store/postgres-store.ts';
import { deleteSite } from '../../api/src/sites/site-settings-delete.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { newMessage, newThread, storedAttachment } from './store-fixtures.ts';

/** Deleting a site deletes its files too, sent and unsent, in the folder and in PostgreSQL; other sites keep theirs. */
let database: TestDatabase;
let db: Db;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 4 });
  dir = await mkdtemp(join(tmpdir(), 'heed-site-files-'));
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

test.each(['folder', 'postgres'])("a deleted site's files are gone from the %s store, and another site's stay", async (mode) => {
  const files: FileStore = mode === 'folder' ? folderStore(join(dir, 'files')) : postgresStore(db);
  const doomed = await newThread(db);
  const kept = await newThread(db);
  const messageId = await newMessage(db, doomed);
  const doomedFiles = [
    await storedAttachment(db, files, doomed, { messageId }),
    await storedAttachment(db, files, doomed, { messageId }),
    await storedAttachment(db, files, doomed),
  ];
  const keptFile = await storedAttachment(db, files, kept);

  expect(await deleteSite(db, doomed.siteId, files)).toEqual({ conversations: 1, visitors: 1, messages: 1 });

  for (const file of doomedFiles) expect(await files.get(file.storeKey)).toBeNull();
  expect((await files.get(keptFile.storeKey))?.equals(keptFile.bytes)).toBe(true);
  const stored: string[] = [];
  for await (const key of files.keys()) stored.push(key);
  expect(stored).toContain(keptFile.storeKey);
  for (const file of doomedFiles) expect(stored).not.toContain(file.storeKey);
  if (mode === 'postgres') expect(await db.fileBlob.count({ where: { key: { in: doomedFiles.map((f) => f.storeKey) } } })).toBe(0);
  expect(await db.attachment.count({ where: { siteId: doomed.siteId } })).toBe(0);
});

test('deleting a site that does not exist touches no file', async () => {
  const files = folderStore(join(dir, 'untouched'));
  const thread = await newThread(db);
  const file = await storedAttachment(db, files, thread);
  expect(await deleteSite(db, '00000000-0000-4000-8000-000000000000', files)).toBeNull();
  expect((await files.get(file.storeKey))?.equals(file.bytes)).toBe(true);
});
