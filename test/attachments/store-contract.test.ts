import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, type Db } from '../../api/src/db/client.ts';
import { newStoreKey, type FileStore } from '../../api/src/attachments/store/file-store.ts';
import { folderStore } from '../../api/src/attachments/store/folder-store.ts';
import { postgresStore } from '../../api/src/attachments/store/postgres-store.ts';
import { s3Store } from '../../api/src/attachments/store/s3-store.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startTestS3, type TestS3 } from '../support/s3-server.ts';

/**
 * One contract, three stores: a folder (the embedded mode), an S3-API server (s3rver, in this
 * process) and PostgreSQL's FileBlob (the test database). Whatever mode a deployment is in,
 * uploads, downloads, deletes and exports behave the same.
 */
let dir: string;
let s3: TestS3;
let database: TestDatabase;
let db: Db;
const stores: Record<string, FileStore> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heed-files-'));
  [s3, database] = await Promise.all([startTestS3(), createTestDatabase()]);
  db = createDb(database.url, { max: 4 });
  stores.folder = folderStore(join(dir, 'files'));
  stores.s3 = s3Store({ ...s3, region: 'us-east-1', virtualHosted: false });
  stores.postgres = postgresStore(db);
});
afterAll(async () => {
  await Promise.all(Object.values(stores).map((s) => s.close()));
  await db?.$disconnect();
  await Promise.all([s3?.close(), database?.drop(), rm(dir, { recursive: true, force: true })]);
});

async function allKeys(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.keys()) keys.push(key);
  return keys.sort();
}

describe.each(['folder', 's3', 'postgres'])('the %s store', (mode) => {
  const store = () => stores[mode]!;

  test('says which mode it is in', () => {
    expect(store().mode).toBe(mode);
    expect(store().summary).toMatch(/^files: /);
  });

  test('gives back the exact bytes it was given, every byte value included', async () => {
    const key = newStoreKey();
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(300_000)]);
    await store().put(key, bytes, 'application/octet-stream');
    const back = await store().get(key);
    expect(back?.equals(bytes)).toBe(true);
  });

  test('answers null for a key it never stored', async () => {
    expect(await store().get(newStoreKey())).toBeNull();
  });

  test('a put under a used key replaces its bytes', async () => {
    const key = newStoreKey();
    await store().put(key, Buffer.from('first'), 'text/plain');
    await store().put(key, Buffer.from('second, longer'), 'text/plain');
    expect((await store().get(key))?.toString()).toBe('second, longer');
  });

  test('an empty file is a file', async () => {
    const key = newStoreKey();
    await store().put(key, Buffer.alloc(0), 'text/plain');
    expect((await store().get(key))?.length).toBe(0);
  });

  test('lists every key it holds, and deleted ones no more', async () => {
    const keys = Array.from({ length: 5 }, newStoreKey);
    for (const key of keys) await store().put(key, Buffer.from(key), 'text/plain');
    const listed = await allKeys(store());
    expect(listed).toEqual(expect.arrayContaining(keys));
    await store().delete(keys.slice(0, 2));
    const after = await allKeys(store());
    expect(after).toEqual(expect.arrayContaining(keys.slice(2)));
    expect(after).not.toContain(keys[0]);
    expect(after).not.toContain(keys[1]);
    expect(await store().get(keys[0]!)).toBeNull();
    expect((await store().get(keys[2]!))?.toString()).toBe(keys[2]);
  });

  test('deleting keys it does not hold, or the same key twice, is no error', async () => {
    const key = newStoreKey();
    await store().put(key, Buffer.from('x'), 'text/plain');
    await store().delete([key, newStoreKey()]);
    await store().delete([key]);
    await store().delete([]);
    expect(await store().get(key)).toBeNull();
  });

  test.each([
    '../escape',
    'ab/../../escape',
    '/etc/passwd',
    'ab//cd',
    'ab/./cd',
    '.hidden',
    'ab\\cd',
    'ab/cd/',
    '',
    'a'.repeat(201),
    'ab/cd?x=1',
    'ab/c d',
  ])('refuses the key %j everywhere', async (key) => {
    await expect(store().put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/not a file store key/);
    await expect(store().get(key)).rejects.toThrow(/not a file store key/);
    await expect(store().delete([newStoreKey(), key])).rejects.toThrow(/not a file store key/);
  });
});

test('new keys are random, fanned out over two folder levels, and accepted by every store', () => {
  const keys = Array.from({ length: 1000 }, newStoreKey);
  expect(new Set(keys).size).toBe(1000);
  for (const key of keys) expect(key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f-]{36}$/);
  expect(new Set(keys.map((k) => k.slice(0, 2))).size).toBeGreaterThan(100);
});
