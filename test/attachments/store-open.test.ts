import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig, type Config } from '../../api/src/config.ts';
import { createDb, type Db } from '../../api/src/db/client.ts';
import { newStoreKey } from '../../api/src/attachments/store/file-store.ts';
import { openFileStore } from '../../api/src/attachments/store/open-file-store.ts';
import { s3SettingsOf } from '../../api/src/attachments/store/s3-settings.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { startTestS3, type TestS3 } from '../support/s3-server.ts';

/**
 * Which store a deployment gets, from its environment as `npm start` reads it: a bucket when one
 * is configured, the data folder in the embedded mode, PostgreSQL otherwise; and what an operator
 * reads when the S3 settings are half there or wrong (never the secret).
 */
let dir: string;
let s3: TestS3;
let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'heed-open-files-'));
  [s3, database] = await Promise.all([startTestS3(), createTestDatabase()]);
  db = createDb(database.url, { max: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([s3?.close(), database?.drop(), rm(dir, { recursive: true, force: true })]);
});

const configOf = (env: Record<string, string>): Config => loadConfig({ NODE_ENV: 'test', HEED_DATA_DIR: join(dir, 'data'), ...env });
const SECRET = 'wJalr/XUtnFEMI+K7MDENG%bPxRfiCY';

test('the embedded mode keeps files in the data folder, made when the first file comes', async () => {
  const files = await openFileStore(configOf({}), { embeddedDatabase: true, db });
  expect(files.mode).toBe('folder');
  expect(files.summary).toBe(`files: folder ${join(dir, 'data', 'files')}`);
  const key = newStoreKey();
  await files.put(key, Buffer.from('hello'), 'text/plain');
  expect(await readdir(join(dir, 'data', 'files', ...key.split('/').slice(0, 2)))).toEqual([key.split('/')[2]]);
});

test('with a database server and no bucket, files go to PostgreSQL', async () => {
  const files = await openFileStore(configOf({}), { embeddedDatabase: false, db });
  expect(files.mode).toBe('postgres');
  expect(files.summary).toBe('files: PostgreSQL');
});

test.each([true, false])(
  'a configured bucket wins in either mode (embedded: %s), set by S3_URL or by the separate settings',
  async (embedded) => {
    for (const env of [{ S3_URL: s3.url }, s3.env]) {
      const files = await openFileStore(configOf(env), { embeddedDatabase: embedded, db });
      try {
        expect(files.mode).toBe('s3');
        expect(files.summary).toBe(`files: S3 bucket heed-test at ${new URL(s3.endpoint).host}`);
        const key = newStoreKey();
        await files.put(key, Buffer.from('in the bucket'), 'text/plain');
        expect((await files.get(key))?.toString()).toBe('in the bucket');
      } finally {
        await files.close();
      }
    }
  },
);

test('a bucket that does not answer stops the start with the reason, not the first upload', async () => {
  const wrongBucket = openFileStore(configOf({ ...s3.env, S3_BUCKET: 'no-such-bucket' }), { embeddedDatabase: false, db });
  await expect(wrongBucket).rejects.toThrow('the S3 bucket no-such-bucket at');
  await expect(wrongBucket).rejects.toThrow('no such bucket');
  // s3rver checks the key id (not a v4 signature): an unknown one is refused as AWS refuses it
  const wrongKey = await openFileStore(configOf({ ...s3.env, S3_ACCESS_KEY_ID: 'AKIAUNKNOWN', S3_SECRET_ACCESS_KEY: SECRET }), {
    embeddedDatabase: false,
    db,
  }).catch((err: Error) => err);
  expect((wrongKey as Error).message).toBe(
    `the S3 bucket heed-test at ${new URL(s3.endpoint).host} does not answer (the keys are refused)`,
  );
});

test('S3_URL is taken apart with its key, secret and bucket percent-decoded, and the region from its query', () => {
  const url = `https://AKIA%2BID:${encodeURIComponent(SECRET)}@s3.example.net:8443/heed-files?region=eu-west-1`;
  expect(s3SettingsOf(configOf({ S3_URL: url }))).toEqual({
    endpoint: 'https://s3.example.net:8443',
    bucket: 'heed-files',
    region: 'eu-west-1',
    accessKeyId: 'AKIA+ID',
    secretAccessKey: SECRET,
    virtualHosted: false,
  });
  // without ?region, S3_REGION (default us-east-1); S3_VIRTUAL_HOSTED applies to either form
  expect(s3SettingsOf(configOf({ S3_URL: 'https://k:s@minio.internal/b-1/', S3_VIRTUAL_HOSTED: 'true' }))).toMatchObject({
    endpoint: 'https://minio.internal',
    bucket: 'b-1',
    region: 'us-east-1',
    virtualHosted: true,
  });
});

test('the separate settings make the same bucket, S3_REGION included', () => {
  const config = configOf({ ...s3.env, S3_REGION: 'auto' });
  expect(s3SettingsOf(config)).toEqual({
    endpoint: s3.endpoint,
    bucket: 'heed-test',
    region: 'auto',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    virtualHosted: false,
  });
  expect(s3SettingsOf(configOf({}))).toBeNull();
});

test.each([
  [{ S3_ENDPOINT: 'https://s3.example.net' }, 'S3_ENDPOINT set, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY missing'],
  [{ S3_ENDPOINT: 'https://s3.example.net', S3_BUCKET: 'heed' }, 'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY missing'],
  [{ S3_BUCKET: 'heed', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: SECRET }, 'S3_ENDPOINT missing'],
  [
    { S3_ENDPOINT: 'ftp://s3.example.net', S3_BUCKET: 'heed', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: SECRET },
    'S3_ENDPOINT: must start with https://',
  ],
  [
    { S3_ENDPOINT: 'https://s3.example.net', S3_BUCKET: 'Heed files!', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: SECRET },
    'S3_BUCKET: the bucket must be',
  ],
  [{ S3_URL: `https://id:${encodeURIComponent(SECRET)}@h/b-1`, S3_BUCKET: 'other' }, 'not both: unset S3_BUCKET'],
  [{ S3_URL: 'https://s3.example.net/heed' }, 'the key id is missing'],
  [{ S3_URL: 'https://id@s3.example.net/heed' }, 'the secret is missing'],
  [{ S3_URL: `https://id:${encodeURIComponent(SECRET)}@s3.example.net/` }, 'the bucket is missing'],
  [{ S3_URL: `https://id:${encodeURIComponent(SECRET)}@s3.example.net/heed/prefix` }, 'the path must be the bucket alone'],
  [{ S3_URL: `ftp://id:${encodeURIComponent(SECRET)}@s3.example.net/heed` }, 'must start with https://'],
  [{ S3_URL: 'https://id:50%zz@s3.example.net/heed' }, 'the secret is not percent-encoded right'],
])('half a configuration is refused with what to set: %j', async (env, reason) => {
  const config = configOf(env);
  expect(() => s3SettingsOf(config)).toThrow(reason);
  const refused = await openFileStore(config, { embeddedDatabase: false, db }).catch((err: Error) => err);
  expect((refused as Error).message).toContain(reason);
  expect((refused as Error).message).not.toContain(SECRET);
  expect((refused as Error).message).not.toContain(encodeURIComponent(SECRET));
});
