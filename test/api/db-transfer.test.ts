import { addKnowledgeFile } from '../../api/src/knowledge/text-sources.ts';
import { vectorBytes } from '../../api/src/knowledge/embeddings.ts';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TestHeed } from '../support/harness.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { isEmbeddedTestRun } from '../support/stores.ts';
import { startEmbeddedPostgres } from '../../api/src/embedded/embedded-postgres.ts';
import { migrate } from '../../api/src/db/migrate.ts';

/** Each test runs the transfer CLI (a tsx process) once or twice, up to 60 s each on a loaded machine. */
const TRANSFER_TEST_MS = 150_000;

/**
 * Moving up without losing data: `npm run db:export` writes a Heed database to a file and
 * `npm run db:import` loads it into an empty one (the embedded database's data onto a server,
 * or a backup back). The round trip must give back every row of every table — generated
 * search vectors and serial numbers included — through the commands a person runs.
 */
const run = promisify(execFile);
let heed: TestHeed;
let target: TestDatabase;
let dir: string;

beforeAll(async () => {
  heed = await TestHeed.start();
  target = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'heed-transfer-'));
  // as root, the embedded PostgreSQL runs as the postgres user, which must reach its folder
  await chmod(dir, 0o755);
});
afterAll(async () => {
  await heed?.stop();
  await target?.drop();
  await rm(dir, { recursive: true, force: true });
});

const transfer = (command: 'export' | 'import', file: string, databaseUrl: string) =>
  run('npx', ['tsx', 'api/src/db/transfer-main.ts', command, file], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
    timeout: 60_000,
  });

/** Every table's rows, as one fingerprint per table (order-independent). */
async function fingerprints(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ n: number; digest: string }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(to_jsonb(t)::text, '|' ORDER BY to_jsonb(t)::text), '')) AS digest FROM "${name}" t`,
      );
      out[name] = `${rows[0]?.n}:${rows[0]?.digest}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

test(
  'an export imported into an empty database gives back every row, search vectors and serials included, and refuses to overwrite',
  async () => {
    // a conversation with a batch, a reply, events, a title check and a console operator
    const visitor = await heed.visitor();
    const conversationId = await visitor.conversation();
    await visitor.send(conversationId, 'Do you ship rhubarb jam to Tromsø?');
    await heed.until('a reply', async () => (await heed.services.db.message.count({ where: { conversationId, role: 'assistant' } })) === 1);
    await heed.titlePass();
    await heed.services.db.operator.create({ data: { email: 'owner@example.test', name: 'Owner', role: 'owner' } });
    // site knowledge: a file's excerpt with its vector (bytes), and a question it had nothing for
    const site = await heed.services.db.site.findFirstOrThrow({ select: { id: true } });
    await addKnowledgeFile(heed.services, site.id, { name: 'care.md', bytes: new TextEncoder().encode('# Care\n\nWash cold.') });
    await heed.services.db.knowledgeExcerpt.updateMany({ data: { embedding: vectorBytes(Float32Array.of(0.6, 0.8)) } });
    const run = await heed.services.db.run.findFirstOrThrow({ select: { id: true } });
    await heed.services.db.unansweredQuestion.create({ data: { siteId: site.id, conversationId, runId: run.id, text: 'Bitcoin?' } });

    const file = join(dir, 'heed.jsonl');
    const exported = await transfer('export', file, heed.database.url);
    expect(exported.stdout).toMatch(/exported \d+ rows/);
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ heed: 'export', format: 1 });

    const imported = await transfer('import', file, target.url);
    expect(imported.stdout).toMatch(/imported \d+ rows/);
    const [before, after] = await Promise.all([fingerprints(heed.database.url), fingerprints(target.url)]);
    expect(after).toEqual(before);
    expect(Number(before.Message?.split(':')[0])).toBeGreaterThanOrEqual(2);
    expect(before.KnowledgeExcerpt?.startsWith('1:')).toBe(true);

    // the copy works as Heed's database: full-text recall finds the words, new rows number after the old
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const found = await client.query<{ role: string }>(`SELECT role FROM "Message" WHERE search @@ plainto_tsquery('simple', 'rhubarb')`);
      expect(found.rows.map((r) => r.role)).toContain('user');
      const maxSeq = (await client.query<{ m: string }>(`SELECT max(seq)::text AS m FROM "Message"`)).rows[0]!.m;
      const next = await client.query<{ seq: string }>(
        `INSERT INTO "Message" (id, "conversationId", "visitorId", role, content) SELECT gen_random_uuid(), "conversationId", "visitorId", 'user', 'later' FROM "Message" LIMIT 1 RETURNING seq::text`,
      );
      expect(BigInt(next.rows[0]!.seq)).toBeGreaterThan(BigInt(maxSeq));
    } finally {
      await client.end();
    }

    // a second import into the now-used database is refused whole, with the reason
    const again = await transfer('import', file, target.url).catch((err: { stderr: string; code: number }) => err);
    expect(again).toMatchObject({ code: 1 });
    expect((again as { stderr: string }).stderr).toContain('already holds sites');
  },
  TRANSFER_TEST_MS,
);

test(
  'an export from another schema version, or a file that is not an export, is refused and changes nothing',
  async () => {
    const empty = await createTestDatabase();
    try {
      const old = join(dir, 'old.jsonl');
      await writeFile(
        old,
        `${JSON.stringify({ heed: 'export', format: 1, exportedAt: new Date().toISOString(), migrations: ['20261129232510_init'] })}\n`,
      );
      const refused = await transfer('import', old, empty.url).catch((err: { stderr: string }) => err);
      expect((refused as { stderr: string }).stderr).toContain('npm run db:migrate');
      const junk = join(dir, 'junk.jsonl');
      await writeFile(junk, '{"table":"Site","rows":[]}\n');
      const notExport = await transfer('import', junk, empty.url).catch((err: { stderr: string }) => err);
      expect((notExport as { stderr: string }).stderr).toContain('not a Heed export');
      expect(Object.values(await fingerprints(empty.url)).every((f) => f.startsWith('0:'))).toBe(true);
    } finally {
      await empty.drop();
    }
  },
  TRANSFER_TEST_MS,
);

test.skipIf(isEmbeddedTestRun())(
  'an embedded installation moves to a PostgreSQL server: export without DATABASE_URL, import with it',
  async () => {
    // an embedded installation with a conversation in it, as `npm start` leaves one (PostgreSQL 18)
    const dataDir = join(dir, 'embedded');
    const embedded = await startEmbeddedPostgres({ dataDir });
    let source: Record<string, string>;
    try {
      await migrate(embedded.url, { log: () => {} });
      const client = new pg.Client({ connectionString: embedded.url });
      await client.connect();
      await client.query(`
      WITH s AS (INSERT INTO "Site" (id, key, name) VALUES (gen_random_uuid(), 'moved', 'Moved shop') RETURNING id),
           v AS (INSERT INTO "Visitor" (id, "siteId") SELECT gen_random_uuid(), id FROM s RETURNING id, "siteId"),
           c AS (INSERT INTO "Conversation" (id, "siteId", "visitorId", title) SELECT gen_random_uuid(), "siteId", id, 'Jam' FROM v RETURNING id, "visitorId")
      INSERT INTO "Message" (id, "conversationId", "visitorId", role, content, state) SELECT gen_random_uuid(), id, "visitorId", 'user', 'Rhubarb jam to Tromsø?', 'pending' FROM c`);
      await client.end();
      source = await fingerprints(embedded.url);
    } finally {
      await embedded.stop();
    }
    const file = join(dir, 'moved.jsonl');
    const exported = await run('npx', ['tsx', 'api/src/db/transfer-main.ts', 'export', file], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HEED_DATA_DIR: dataDir },
      timeout: 60_000,
    });
    expect(exported.stdout).toContain('from the embedded database');
    const server = await createTestDatabase();
    try {
      await transfer('import', file, server.url);
      expect(await fingerprints(server.url)).toEqual(source);
    } finally {
      await server.drop();
    }
  },
  TRANSFER_TEST_MS,
);
