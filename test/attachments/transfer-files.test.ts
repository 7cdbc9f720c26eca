import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDb, type Db } from '../../api/src/db/client.ts';
import type { FileStore } from '../../api/src/attachments/store/file-store.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';
import { postgresStore } from '../../api/src/attachments/store/postgres-store.ts';
import { s3Store } from '../../api/src/attachments/store/s3-store.ts';
import { exportData } from '../../api/src/db/transfer/export-data.ts';
import { importData } from '../../api/src/db/transfer/import-data.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startTestS3, type TestS3 } from '../support/s3-server.ts';
import { newMessage, newThread, storedAttachment } from './store-fixtures.ts';

/** The transfer CLI runs in a tsx process, up to 60 s on a loaded machine, twice. */
const CLI_TEST_MS = 150_000;

/**
 * `npm run db:export` / `db:import` carry attached files whatever mode either side is in: a
 * folder (the embedded mode), PostgreSQL or a bucket. Every file reads back byte for byte from
 * the target's own store, and a failed import leaves no file behind.
 */
const run = promisify(execFile);
let dir: string;
let s3: TestS3;
const databases: TestDatabase[] = [];
const clients: Db[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heed-transfer-files-'));
  s3 = await startTestS3();
});
afterAll(async () => {
  await Promise.all(clients.map((db) => db.$disconnect()));
  await Promise.all(databases.map((d) => d.drop()));
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh migrated database and a client of it. */
async function database(): Promise<{ url: string; db: Db }> {
  const created = await createTestDatabase();
  databases.push(created);
  const db = createDb(created.url, { max: 3 });
  clients.push(db);
  return { url: created.url, db };
}

/** A site with sent and unsent attachments (an image, a PDF of 3 MB, an empty text file) in `files`. */
async function withAttachments(db: Db, files: FileStore) {
  const thread = await newThread(db);
  const messageId = await newMessage(db, thread);
  return [
    await storedAttachment(db, files, thread, {
      messageId,
      mime: 'image/png',
      bytes: Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    }),
    await storedAttachment(db, files, thread, { messageId, mime: 'application/pdf', bytes: randomBytes(3_000_000) }),
    await storedAttachment(db, files, thread, { mime: 'text/plain', bytes: Buffer.alloc(0) }),
  ];
}

async function exportTo(file: string, url: string, files: FileStore) {
  const out = createWriteStream(file, { flags: 'wx' });
  const counts = await exportData(url, out, files);
  out.end();
  await finished(out);
  return counts;
}

/** Each attachment row of the target, with the bytes its store gives for it. */
async function readBack(db: Db, files: FileStore): Promise<Map<string, Buffer | null>> {
  const rows = await db.attachment.findMany({ select: { id: true, storeKey: true } });
  return new Map(await Promise.all(rows.map(async (r) => [r.id, await files.get(r.storeKey)] as const)));
}

test('files kept in a folder (the embedded mode) arrive byte for byte in PostgreSQL', async () => {
  const source = await database();
  const sourceFiles = folderStore(join(dir, 'folder-source'));
  const attached = await withAttachments(source.db, sourceFiles);
  const file = join(dir, 'folder-to-postgres.jsonl');
  expect(await exportTo(file, source.url, sourceFiles)).toMatchObject({ files: 3, missingFiles: 0 });

  const target = await database();
  const targetFiles = postgresStore(target.db);
  expect(await importData(target.url, createReadStream(file), targetFiles)).toMatchObject({ files: 3, tables: { Attachment: 3 } });
  const back = await readBack(target.db, targetFiles);
  for (const a of attached) expect(back.get(a.id)?.equals(a.bytes)).toBe(true);
  expect(await target.db.fileBlob.count()).toBe(3);
});

test('files kept in PostgreSQL arrive byte for byte in a folder, and the blobs do not travel as a table', async () => {
  const source = await database();
  const sourceFiles = postgresStore(source.db);
  const attached = await withAttachments(source.db, sourceFiles);
  const file = join(dir, 'postgres-to-folder.jsonl');
  const exported = await exportTo(file, source.url, sourceFiles);
  expect(exported).toMatchObject({ files: 3, missingFiles: 0 });
  expect(exported.tables).not.toHaveProperty('FileBlob');

  const target = await database();
  const targetFiles = folderStore(join(dir, 'folder-target'));
  await importData(target.url, createReadStream(file), targetFiles);
  const back = await readBack(target.db, targetFiles);
  for (const a of attached) expect(back.get(a.id)?.equals(a.bytes)).toBe(true);
  expect(await target.db.fileBlob.count()).toBe(0);
});

test('an attachment whose file is gone is exported without it and counted', async () => {
  const source = await database();
  const sourceFiles = folderStore(join(dir, 'missing-source'));
  const [first, second] = await withAttachments(source.db, sourceFiles);
  await sourceFiles.delete([second!.storeKey]);
  const counts = await exportTo(join(dir, 'missing.jsonl'), source.url, sourceFiles);
  expect(counts).toMatchObject({ files: 2, missingFiles: 1 });
  expect((await readFile(join(dir, 'missing.jsonl'), 'utf8')).includes(first!.bytes.toString('base64'))).toBe(true);
});

test('an import that fails leaves the target database empty and deletes the files it had written', async () => {
  const source = await database();
  const sourceFiles = folderStore(join(dir, 'failing-source'));
  await withAttachments(source.db, sourceFiles);
  const file = join(dir, 'failing.jsonl');
  await exportTo(file, source.url, sourceFiles);
  // a last line no store takes: the import fails after writing the good files
  await appendFile(file, `${JSON.stringify({ file: { key: '../../escape', mime: 'text/plain', data: 'eA==' } })}\n`);

  const target = await database();
  const targetFiles = folderStore(join(dir, 'failing-target'));
  await expect(importData(target.url, createReadStream(file), targetFiles)).rejects.toThrow('not a file store key');
  expect(await target.db.attachment.count()).toBe(0);
  expect(await target.db.site.count()).toBe(0);
  const left: string[] = [];
  for await (const key of targetFiles.keys()) left.push(key);
  expect(left).toEqual([]);
});

test(
  'the commands move files from a bucket to PostgreSQL, each side using the store its settings choose',
  async () => {
    const source = await database();
    const bucket = s3Store({ ...s3, region: 'us-east-1', virtualHosted: false });
    const attached = await withAttachments(source.db, bucket);
    const file = join(dir, 'bucket-to-postgres.jsonl');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    const cli = (command: string, extra: Record<string, string>) =>
      run('npx', ['tsx', 'api/src/db/transfer-main.ts', command, file], { env: { ...env, ...extra }, timeout: 60_000 });

    const exported = await cli('export', { DATABASE_URL: source.url, S3_URL: s3.url });
    expect(exported.stdout).toContain(`and 3 files from DATABASE_URL (files: S3 bucket heed-test at ${new URL(s3.endpoint).host})`);
    expect(exported.stdout).not.toContain(s3.secretAccessKey);

    const target = await database();
    const imported = await cli('import', { DATABASE_URL: target.url });
    expect(imported.stdout).toContain('and 3 files from');
    expect(imported.stdout).toContain('into DATABASE_URL (files: PostgreSQL)');
    const back = await readBack(target.db, postgresStore(target.db));
    for (const a of attached) expect(back.get(a.id)?.equals(a.bytes)).toBe(true);
    await bucket.close();
  },
  CLI_TEST_MS,
);
