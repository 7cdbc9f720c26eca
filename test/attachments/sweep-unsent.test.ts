import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createDb, type Db } from '../../api/src/db/client.ts';
import type { FileStore } from '../../api/src/attachments/store/file-store.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';
import { s3Store } from '../../api/src/attachments/store/s3-store.ts';
import { deleteStoredFiles, sweepUnsentAttachments } from '../../api/src/attachments/sweep-unsent.ts';
import { createLogger } from '../../api/src/logging/logger.ts';
import { memoryDestination } from '../../api/src/logging/memory-destination.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { closedPort } from '../support/closed-port.ts';
import { newMessage, newThread, storedAttachment, type Thread } from './store-fixtures.ts';

/**
 * Uploads no send took are swept after a day, rows and bytes, by any number of worker
 * processes at once; sent files and fresh uploads stay.
 */
let database: TestDatabase;
let db: Db;
let dir: string;
let files: FileStore;
let thread: Thread;
const DAY = 24 * 60 * 60 * 1000;
const old = () => new Date(Date.now() - 2 * DAY);

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 6 });
  dir = await mkdtemp(join(tmpdir(), 'heed-sweep-'));
  files = folderStore(dir);
  thread = await newThread(db);
});
beforeEach(async () => {
  await db.attachment.deleteMany();
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

test('two sweeps at once delete every old unsent upload exactly once, with its file; sent files and fresh uploads stay', async () => {
  const messageId = await newMessage(db, thread);
  const unsent = await Promise.all(Array.from({ length: 60 }, () => storedAttachment(db, files, thread, { createdAt: old() })));
  const sent = await Promise.all(Array.from({ length: 3 }, () => storedAttachment(db, files, thread, { createdAt: old(), messageId })));
  const fresh = await Promise.all(Array.from({ length: 3 }, () => storedAttachment(db, files, thread)));

  const [a, b] = await Promise.all([
    sweepUnsentAttachments({ db, files }, { batch: 7 }),
    sweepUnsentAttachments({ db, files }, { batch: 7 }),
  ]);
  expect(a.attachments + b.attachments).toBe(60);
  expect(a.filesLeft + b.filesLeft).toBe(0);

  const left = await db.attachment.findMany({ select: { id: true } });
  expect(left.map((r) => r.id).sort()).toEqual([...sent, ...fresh].map((r) => r.id).sort());
  for (const gone of unsent) expect(await files.get(gone.storeKey)).toBeNull();
  for (const kept of [...sent, ...fresh]) expect((await files.get(kept.storeKey))?.equals(kept.bytes)).toBe(true);
  // nothing left to sweep
  expect(await sweepUnsentAttachments({ db, files })).toEqual({ attachments: 0, filesLeft: 0 });
});

test('a sweep passes over rows another transaction holds (a send taking them), and the send keeps them', async () => {
  const messageId = await newMessage(db, thread);
  const [taken, other] = [
    await storedAttachment(db, files, thread, { createdAt: old() }),
    await storedAttachment(db, files, thread, { createdAt: old() }),
  ];
  const send = new pg.Client({ connectionString: database.url });
  await send.connect();
  try {
    await send.query('BEGIN');
    await send.query(`UPDATE "Attachment" SET "messageId" = $1 WHERE id = $2`, [messageId, taken.id]);
    // the row the send holds is skipped, not waited for: the sweep ends while the send is open
    expect(await sweepUnsentAttachments({ db, files })).toEqual({ attachments: 1, filesLeft: 0 });
    await send.query('COMMIT');
  } finally {
    await send.end();
  }
  expect(await db.attachment.findUnique({ where: { id: taken.id }, select: { messageId: true } })).toEqual({ messageId });
  expect((await files.get(taken.storeKey))?.equals(taken.bytes)).toBe(true);
  expect(await db.attachment.count({ where: { id: other.id } })).toBe(0);
  expect(await files.get(other.storeKey)).toBeNull();
  expect(await sweepUnsentAttachments({ db, files })).toEqual({ attachments: 0, filesLeft: 0 });
});

test('the age limit is the caller’s to choose', async () => {
  const hourOld = await storedAttachment(db, files, thread, { createdAt: new Date(Date.now() - 60 * 60 * 1000) });
  expect(await sweepUnsentAttachments({ db, files })).toEqual({ attachments: 0, filesLeft: 0 });
  expect(await sweepUnsentAttachments({ db, files }, { olderThanMs: 30 * 60 * 1000 })).toEqual({ attachments: 1, filesLeft: 0 });
  expect(await files.get(hourOld.storeKey)).toBeNull();
});

test('a file store that fails does not stop the sweep: the rows go, the failure is logged and counted', async () => {
  await Promise.all(Array.from({ length: 3 }, () => storedAttachment(db, files, thread, { createdAt: old() })));
  const away = s3Store({
    endpoint: `http://127.0.0.1:${await closedPort()}`,
    bucket: 'away',
    region: 'us-east-1',
    accessKeyId: 'id',
    secretAccessKey: 'secret',
    virtualHosted: false,
  });
  const log = memoryDestination();
  const logger = createLogger('info', log);
  try {
    expect(await sweepUnsentAttachments({ db, files: away, logger })).toEqual({ attachments: 3, filesLeft: 3 });
    expect(await db.attachment.count()).toBe(0);
    expect(log.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 'warn', files: 3, store: 's3', msg: expect.stringContaining('not deleted from the file store') }),
    ]);
    expect(await deleteStoredFiles(away, [])).toBe(true);
  } finally {
    await away.close();
  }
});
