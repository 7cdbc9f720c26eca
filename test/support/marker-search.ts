import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { s3SettingsOf } from '../../api/src/attachments/store/s3-settings.ts';
import type { Config } from '../../api/src/config.ts';
import { isInProcess, type Redis } from '../../api/src/redis/client.ts';
import type { Services } from '../../api/src/services.ts';

/** What runs SQL: a Prisma client (`services.db`), whose `$queryRawUnsafe` takes `$1` parameters. */
interface SqlClient {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** An S3-API bucket and the keys to read it (`TestS3` from s3-server.ts fits as it is). */
export interface MarkerBucket {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
}

/** Where a marker may have been left: every store a Heed stack writes to. */
export interface MarkerPlaces {
  /** the database: a Prisma client (`services.db`) or a connection string */
  db: SqlClient | string;
  /** the schema whose tables are searched (default `public`, where Heed's tables live) */
  schema?: string;
  /** the coordination store: a node-redis client, or the embedded mode's in-process one (`services.redis`) */
  redis?: Redis;
  /** only keys starting with this are searched (`config.REDIS_PREFIX`); default every key */
  redisPrefix?: string;
  /** a folder whose every file is searched, hidden ones too (the folder file store's root) */
  dataDir?: string;
  /** a bucket whose every object is searched, its key and its bytes */
  s3?: MarkerBucket;
}

/** Shorter markers turn up by chance (in ids, hashes, hex): a search for one would prove nothing. */
const MIN_MARKER = 8;

/**
 * Every place a marker occurs: `table <Name>` for each table of the schema holding it in any
 * column (read from the catalog, so a new table is searched without anyone listing it; bytea
 * columns such as `FileBlob.data` are searched as bytes), `redis key <key>` for each key whose
 * name or value holds it (strings, hashes, lists, sets, sorted sets, streams), `file <path>`
 * under `dataDir` and `s3 object <key>` in the bucket. Empty when it is nowhere: what a test of
 * erasure or retention asserts after writing a marker through every path a visitor has.
 *
 * Use an ASCII marker (a random UUID in it): a stored JSON value may escape other characters.
 * In the embedded mode the rate limits count in process memory, never in the store searched here.
 * @example expect(await findMarker(markerPlacesOf(heed), marker)).toEqual([])
 */
export async function findMarker(where: MarkerPlaces, marker: string): Promise<string[]> {
  if (marker.length < MIN_MARKER) throw new Error(`a marker of ${marker.length} characters may occur by chance: use ${MIN_MARKER} or more`);
  const found = await Promise.all([
    inDatabase(where.db, where.schema ?? 'public', marker),
    where.redis ? inRedis(where.redis, where.redisPrefix ?? '', marker) : [],
    where.dataDir ? inFolder(where.dataDir, marker) : [],
    where.s3 ? inBucket(where.s3, marker) : [],
  ]);
  return found.flat();
}

/**
 * The places of a test stack (`TestHeed`, or anything with its `services` and `config`): its
 * database, its Redis keys (by its prefix), and its file store when that is a folder or a
 * bucket (a `FileBlob` store is a table, searched with the rest).
 * @example const heed = await TestHeed.start(); … await findMarker(markerPlacesOf(heed), marker)
 */
export function markerPlacesOf(stack: { services: Pick<Services, 'db' | 'redis' | 'files'>; config: Config }): MarkerPlaces {
  const { services, config } = stack;
  const s3 = services.files.mode === 's3' ? s3SettingsOf(config) : null;
  return {
    db: services.db,
    redis: services.redis,
    redisPrefix: config.REDIS_PREFIX,
    dataDir: services.files.mode === 'folder' ? join(config.HEED_DATA_DIR, 'files') : undefined,
    s3: s3 ?? undefined,
  };
}

interface Column {
  table: string;
  column: string;
  bytes: boolean;
}

/** Each table with a row holding the marker: text columns by their text, bytea columns by their bytes. */
async function inDatabase(db: SqlClient | string, schema: string, marker: string): Promise<string[]> {
  return withSql(db, async (query) => {
    const columns = await query<Column>(
      `SELECT c.relname AS "table", a.attname AS "column", a.atttypid = 'bytea'::regtype AS bytes
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE n.nspname = $1 AND c.relkind = 'r'
        ORDER BY c.relname, a.attnum`,
      [schema],
    );
    const tables = new Map<string, Column[]>();
    for (const c of columns) tables.set(c.table, [...(tables.get(c.table) ?? []), c]);
    const hits = await Promise.all(
      [...tables].map(async ([table, cols]) => {
        // every type has a text form (`::text` is its output function); bytes are matched as bytes, whatever their encoding
        const tests = cols.map((c) =>
          c.bytes ? `position(convert_to($1, 'UTF8') in ${ident(c.column)}) > 0` : `position($1 in ${ident(c.column)}::text) > 0`,
        );
        const rows = await query(`SELECT 1 FROM ${ident(schema)}.${ident(table)} WHERE ${tests.join(' OR ')} LIMIT 1`, [marker]);
        return rows.length > 0 ? [`table ${table}`] : [];
      }),
    );
    return hits.flat();
  });
}

type Query = <T = Record<string, unknown>>(sql: string, params: unknown[]) => Promise<T[]>;

/** Runs `work` with a query function over the Prisma client, or over a connection opened (and closed) for it. */
async function withSql<T>(db: SqlClient | string, work: (query: Query) => Promise<T>): Promise<T> {
  if (typeof db !== 'string') return work((sql, params) => db.$queryRawUnsafe(sql, ...params));
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    // one connection answers one statement at a time: the tables are searched in turn
    let turn: Promise<unknown> = Promise.resolve();
    return await work((sql, params) => {
      const result = turn.then(() => client.query(sql, params)).then((r) => r.rows);
      turn = result.catch(() => undefined);
      return result;
    });
  } finally {
    await client.end();
  }
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Commands reading a key's whole value, by the key's type. */
const READ_VALUE: Record<string, (key: string) => string[]> = {
  string: (key) => ['GET', key],
  hash: (key) => ['HGETALL', key],
  list: (key) => ['LRANGE', key, '0', '-1'],
  set: (key) => ['SMEMBERS', key],
  zset: (key) => ['ZRANGE', key, '0', '-1'],
  stream: (key) => ['XRANGE', key, '-', '+'],
};

/** Each key under `prefix` whose name or value holds the marker. */
async function inRedis(redis: Redis, prefix: string, marker: string): Promise<string[]> {
  if (isInProcess(redis)) return inMemoryRedis(redis, prefix, marker);
  const send = (args: string[]) => redis.sendCommand(args) as Promise<unknown>;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = (await send(['SCAN', cursor, 'MATCH', `${globEscape(prefix)}*`, 'COUNT', '1000'])) as [string, string[]];
    cursor = next;
    for (const key of keys) {
      if (key.includes(marker)) {
        found.push(`redis key ${key}`);
        continue;
      }
      const read = READ_VALUE[String(await send(['TYPE', key]))];
      // a key that expired between SCAN and TYPE is `none`: nothing left to hold the marker
      if (read && strings(await send(read(key))).some((s) => s.includes(marker))) found.push(`redis key ${key}`);
    }
  } while (cursor !== '0');
  return found;
}

/** The embedded mode's store has no SCAN: its keys are read where it keeps them (strings only, all it stores). */
function inMemoryRedis(redis: Redis, prefix: string, marker: string): string[] {
  const store = Reflect.get(redis, 'store') as { values?: Map<string, { value: string; expiresAt: number | null }> } | undefined;
  if (!store?.values) throw new Error('the in-process Redis keeps its keys elsewhere now: update marker-search.ts');
  const now = Date.now();
  return [...store.values]
    .filter(
      ([key, { value, expiresAt }]) =>
        key.startsWith(prefix) && (expiresAt === null || expiresAt > now) && `${key}\n${value}`.includes(marker),
    )
    .map(([key]) => `redis key ${key}`);
}

/** Every string in a reply, however nested (a stream's entries are arrays of arrays). */
function strings(reply: unknown): string[] {
  if (typeof reply === 'string') return [reply];
  if (Buffer.isBuffer(reply)) return [reply.toString('utf8')];
  if (Array.isArray(reply)) return reply.flatMap(strings);
  if (reply && typeof reply === 'object') return Object.entries(reply).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

/** A prefix as a SCAN pattern matches it literally. */
const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/** Each file under `root` whose bytes hold the marker (a missing folder holds none). */
async function inFolder(root: string, marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of await filesUnder(root)) {
    if ((await readFile(path)).includes(marker)) found.push(`file ${relative(root, path).split(sep).join('/')}`);
  }
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [])),
  );
  return nested.flat();
}

/** Each object of the bucket whose key or bytes hold the marker. */
async function inBucket(bucket: MarkerBucket, marker: string): Promise<string[]> {
  const client = new S3Client({
    endpoint: bucket.endpoint,
    region: bucket.region ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: bucket.accessKeyId, secretAccessKey: bucket.secretAccessKey },
  });
  const found: string[] = [];
  try {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, ContinuationToken }));
      for (const { Key } of page.Contents ?? []) {
        if (!Key) continue;
        const object = await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key }));
        const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? []);
        if (Key.includes(marker) || bytes.includes(marker)) found.push(`s3 object ${Key}`);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  } finally {
    client.destroy();
  }
  return found;
}
