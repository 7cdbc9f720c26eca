import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newStoreKey } from '../../api/src/attachments/store/file-store.ts';
import { s3Store } from '../../api/src/attachments/store/s3-store.ts';
import { TestHeed } from './harness.ts';
import { findMarker, markerPlacesOf } from './marker-search.ts';
import { startTestS3 } from './s3-server.ts';
import { isEmbeddedTestRun } from './stores.ts';

/**
 * The search erasure tests lean on finds a marker in each kind of place (a table's text, a
 * bytea column, a Redis key's value, a file) and reports nothing once it is gone: a search
 * that missed a place would let a leftover pass unseen. Runs against this run's stores, the
 * embedded mode's in-process Redis included.
 */
let heed: TestHeed;
let folder: string;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0 });
  folder = await mkdtemp(join(tmpdir(), 'heed-marker-'));
});
afterAll(async () => {
  await heed?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('finds a marker in a message, a FileBlob, a Redis key and a file; none once they are removed', async () => {
  const marker = `marker-${randomUUID()}`;
  const { db, redis } = heed.services;
  const where = { ...markerPlacesOf(heed), dataDir: folder };
  expect(await findMarker(where, marker)).toEqual([]);

  const site = await db.site.findUniqueOrThrow({ where: { key: heed.siteKey }, select: { id: true } });
  const visitor = await db.visitor.create({ data: { siteId: site.id }, select: { id: true } });
  const conversation = await db.conversation.create({ data: { siteId: site.id, visitorId: visitor.id }, select: { id: true } });
  const message = await db.message.create({
    data: { conversationId: conversation.id, visitorId: visitor.id, role: 'user', content: `my order is ${marker}` },
    select: { id: true },
  });
  // bytes around the marker that are not UTF-8 (as in an image): the bytea column is searched as bytes
  const blobKey = `ma/rk/${randomUUID()}`;
  const data = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(marker), Buffer.from([0xc3])]) as Uint8Array<ArrayBuffer>;
  await db.fileBlob.create({ data: { key: blobKey, data } });
  const redisKey = `${heed.config.REDIS_PREFIX}reply:${randomUUID()}`;
  await redis.set(redisKey, `text so far ${marker}`, { expiration: { type: 'PX', value: 60_000 } });
  await mkdir(join(folder, 'ab', 'cd'), { recursive: true });
  await writeFile(join(folder, 'ab', 'cd', 'file'), Buffer.concat([Buffer.from([0x89, 0x50]), Buffer.from(marker)]));

  expect((await findMarker(where, marker)).sort()).toEqual(['file ab/cd/file', `redis key ${redisKey}`, 'table FileBlob', 'table Message']);

  await db.message.delete({ where: { id: message.id } });
  await db.fileBlob.delete({ where: { key: blobKey } });
  await redis.del(redisKey);
  await rm(join(folder, 'ab'), { recursive: true });
  expect(await findMarker(where, marker)).toEqual([]);
});

test('a marker in a Redis key’s name, or in a database reached by its connection string, is found too', async () => {
  const marker = `marker-${randomUUID()}`;
  const key = `${heed.config.REDIS_PREFIX}limit:test:${marker}`;
  await heed.services.redis.set(key, '1', { expiration: { type: 'PX', value: 60_000 } });
  await heed.services.db.site.create({ data: { key: `s-${randomUUID().slice(0, 8)}`, name: marker } });
  const where = { db: heed.database.url, redis: heed.services.redis, redisPrefix: heed.config.REDIS_PREFIX };
  expect((await findMarker(where, marker)).sort()).toEqual([`redis key ${key}`, 'table Site']);
  await heed.services.redis.del(key);
});

test.skipIf(isEmbeddedTestRun())('a marker in a hash, a list, a set, a sorted set or a stream is found', async () => {
  const marker = `marker-${randomUUID()}`;
  const { redis } = heed.services;
  const key = (type: string) => `${heed.config.REDIS_PREFIX}kinds:${type}`;
  await redis.hSet(key('hash'), 'field', marker);
  await redis.rPush(key('list'), ['a', marker]);
  await redis.sAdd(key('set'), marker);
  await redis.zAdd(key('zset'), { score: 1, value: marker });
  await redis.xAdd(key('stream'), '*', { field: marker });
  const kinds = ['hash', 'list', 'set', 'stream', 'zset'];
  expect((await findMarker(markerPlacesOf(heed), marker)).sort()).toEqual(kinds.map((k) => `redis key ${key(k)}`));
  await redis.del(kinds.map(key));
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);
});

test('a stack’s places include its own file store, whichever mode it runs in', async () => {
  const marker = `marker-${randomUUID()}`;
  const key = newStoreKey();
  await heed.services.files.put(key, Buffer.from(`a screenshot of ${marker}`), 'text/plain');
  const expected = heed.services.files.mode === 'folder' ? `file ${key}` : 'table FileBlob';
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([expected]);
  await heed.services.files.delete([key]);
  expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([]);
});

test('every object of a bucket is searched, its key and its bytes', async () => {
  const s3 = await startTestS3();
  const bucket = s3Store({ ...s3, region: 'us-east-1', virtualHosted: false });
  try {
    const marker = `marker-${randomUUID()}`;
    const key = newStoreKey();
    await bucket.put(key, Buffer.from(`bytes ${marker}`), 'text/plain');
    expect(await findMarker({ db: heed.services.db, s3 }, marker)).toEqual([`s3 object ${key}`]);
    await bucket.delete([key]);
    expect(await findMarker({ db: heed.services.db, s3 }, marker)).toEqual([]);
  } finally {
    await bucket.close();
    await s3.close();
  }
});

test('refuses a marker short enough to occur by chance', async () => {
  await expect(findMarker({ db: heed.services.db }, 'abc')).rejects.toThrow(/by chance/);
});
