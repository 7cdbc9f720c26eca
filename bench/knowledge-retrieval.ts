import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Prisma } from '../api/src/db/client.ts';
import { unit, vectorBytes } from '../api/src/knowledge/embeddings.ts';
import { retrieveKnowledge } from '../api/src/knowledge/retrieve.ts';
import { syncSource } from '../api/src/knowledge/sync-source.ts';
import { VectorIndex } from '../api/src/knowledge/vector-index.ts';
import { LOCAL_EMBEDDING_DIMS } from '../api/src/model-server/local-embeddings.ts';
import { recallTerms, tsQueryText } from '../api/src/chat/context/recall-query.ts';
import type { TestHeed } from '../test/support/harness.ts';
import { preciseNow, rounded, summarize, type Summary } from './stats.ts';
import { formatSection, formatTable } from './table.ts';
import { withStack } from './stack.ts';

const SIZES = [1_000, 10_000, 100_000];
const QUERIES = 30;
/** SQL scans of `real[]` vectors are slow: fewer at the larger sizes */
const SQL_SCANS = 5;
const CRAWL_PAGES = 300;
/** A vocabulary of synthetic words, drawn with a skew (a few common, most rare), as a help site's are. */
const VOCABULARY = 5_000;

export interface RetrievalAtSize {
  excerpts: number;
  /** a bare full-text top-4 on the same table and index: the anchor */
  bareFtsMs: Summary;
  /** Heed's retrieval by words (one statement: matches, their pages, the site's version) */
  textMs: Summary;
  /** the in-memory scan of the site's vectors alone */
  vectorScanMs: Summary;
  /** Heed's hybrid retrieval: the question embedded (local model server), words and vectors, fused */
  hybridMs: Summary;
  /** the alternative storage: the same vectors as real[] and their dot products in SQL */
  sqlVectorScanMs: Summary;
  vectorMemoryMb: number;
}

export interface KnowledgeBenchResult {
  dims: number;
  sizes: RetrievalAtSize[];
  crawl: { pages: number; pagesPerSecond: number; bareFetchPagesPerSecond: number };
}

/**
 * Site knowledge at scale: retrieval time with 1,000, 10,000 and 100,000 excerpts in one site
 * (synthetic text from a skewed vocabulary, random unit vectors of the local embeddings'
 * length), beside a bare full-text top-k on the same table; the vector scan alone, hybrid
 * retrieval, and the storage not chosen (real[] scored in SQL). Then a crawl of a local site,
 * beside bare sequential fetches of the same pages.
 */
export async function measureKnowledgeRetrieval(): Promise<KnowledgeBenchResult> {
  const sizes = await withStack(
    async (heed) => {
      const siteId = (await heed.services.db.site.create({ data: { key: 'bench-knowledge', name: 'Bench' }, select: { id: true } })).id;
      const questions = Array.from({ length: QUERIES }, (_, i) => question(i));
      const out: RetrievalAtSize[] = [];
      let have = 0;
      for (const size of SIZES) {
        await seed(heed, siteId, have, size);
        have = size;
        out.push(await measureAt(heed, siteId, size, questions));
      }
      return out;
    },
    { workers: 0, env: { EMBEDDINGS_MODEL: 'heed-local-embeddings', KNOWLEDGE_VECTOR_CACHE_MB: '1024' } },
  );
  const crawl = await withStack((heed) => measureCrawl(heed), { workers: 0, env: { KNOWLEDGE_ALLOW_PRIVATE: '1' } });
  return { dims: LOCAL_EMBEDDING_DIMS, sizes, crawl };
}

async function measureAt(heed: TestHeed, siteId: string, size: number, questions: string[]): Promise<RetrievalAtSize> {
  const { sql } = heed.services;
  const hybrid = heed.services.knowledge.hybrid!;
  const index = new VectorIndex(sql, 1024 * 1024 * 1024, hybrid.embedder.model);
  const version = (await heed.services.db.site.findUniqueOrThrow({ where: { id: siteId } })).knowledgeVersion;
  const vectors = await hybrid.embedder.embed(questions);
  await index.nearest(siteId, version, vectors[0]!, 20); // loads the site's vectors once
  await retrieveKnowledge(sql, siteId, [questions[0]!], hybrid); // and the worker's own index
  const bare = (q: string) =>
    sql.rows(Prisma.sql`
      SELECT id FROM "KnowledgeExcerpt", to_tsquery('simple', ${tsQueryText(recallTerms([q]))}) q
      WHERE "siteId" = ${siteId}::uuid AND search @@ q ORDER BY ts_rank(search, q, 1) DESC LIMIT 4`);
  const sqlScan = (v: Float32Array) =>
    sql.rows(Prisma.sql`
      SELECT id, (SELECT sum(a * b) FROM unnest(v, ${[...v]}::real[]) AS t(a, b)) AS similarity
      FROM bench_vectors ORDER BY similarity DESC LIMIT 20`);
  return {
    excerpts: size,
    bareFtsMs: await timed(questions, bare),
    textMs: await timed(questions, (q) => retrieveKnowledge(sql, siteId, [q])),
    vectorScanMs: await timed(vectors, (v) => index.nearest(siteId, version, v, 20)),
    hybridMs: await timed(questions, (q) => retrieveKnowledge(sql, siteId, [q], hybrid)),
    sqlVectorScanMs: await timed(vectors.slice(0, size > 10_000 ? SQL_SCANS : QUERIES), sqlScan),
    vectorMemoryMb: Math.round((size * LOCAL_EMBEDDING_DIMS * 4) / 1e5) / 10,
  };
}

async function timed<T>(inputs: readonly T[], run: (input: T) => Promise<unknown>): Promise<Summary> {
  const samples: number[] = [];
  for (const input of inputs) {
    const t0 = preciseNow();
    await run(input);
    samples.push(preciseNow() - t0);
  }
  return rounded(summarize(samples));
}

/** Excerpts `from`..`to` of the site: ten to a page, 60 skewed words each, with random unit vectors (kept also as real[] for the SQL scan). */
async function seed(heed: TestHeed, siteId: string, from: number, to: number): Promise<void> {
  const { db, sql } = heed.services;
  if (from === 0) {
    await db.knowledgeSource.create({
      data: { id: '00000000-0000-4000-8000-00000000b001', siteId, url: 'https://bench.example/sitemap.xml' },
    });
    await db.$executeRaw`CREATE TABLE IF NOT EXISTS bench_vectors (id uuid PRIMARY KEY, v real[] NOT NULL)`;
  }
  await db.$executeRaw`
    INSERT INTO "KnowledgePage" (id, "sourceId", "siteId", url, title)
    SELECT gen_random_uuid(), '00000000-0000-4000-8000-00000000b001'::uuid, ${siteId}::uuid, 'https://bench.example/p' || p, 'Page ' || p
    FROM generate_series(${from / 10}::int, ${to / 10 - 1}::int) AS p`;
  await db.$executeRaw`
    INSERT INTO "KnowledgeExcerpt" (id, "pageId", "siteId", position, heading, text)
    SELECT gen_random_uuid(), pg.id, ${siteId}::uuid, e.i % 10, 'Section ' || e.i,
      (SELECT string_agg('word' || floor(power(random(), 3) * ${VOCABULARY}::int)::int, ' ') FROM generate_series(1, 60) w WHERE w > 0 * e.i)
    FROM generate_series(${from}::int, ${to - 1}::int) AS e(i)
    JOIN "KnowledgePage" pg ON pg."siteId" = ${siteId}::uuid AND pg.url = 'https://bench.example/p' || (e.i / 10)`;
  const ids = (
    await sql.rows<{ id: string }>(Prisma.sql`SELECT id FROM "KnowledgeExcerpt" WHERE "siteId" = ${siteId}::uuid AND embedding IS NULL`)
  ).map((r) => r.id);
  let state = from + 1;
  const random = () => ((state = Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32 - 0.5;
  for (let at = 0; at < ids.length; at += 2000) {
    const chunk = ids.slice(at, at + 2000);
    const vectors = chunk.map(() => unit(Float32Array.from({ length: LOCAL_EMBEDDING_DIMS }, random)));
    await sql.count(Prisma.sql`
      UPDATE "KnowledgeExcerpt" e SET embedding = v.b, "embeddedBy" = ${heed.config.EMBEDDINGS_MODEL}
      FROM unnest(${chunk}::uuid[], ${vectors.map((v) => Buffer.from(vectorBytes(v)))}::bytea[]) AS v(id, b) WHERE e.id = v.id`);
    await sql.count(Prisma.sql`
      INSERT INTO bench_vectors (id, v) SELECT id, string_to_array(v, ',')::real[]
      FROM unnest(${chunk}::uuid[], ${vectors.map((v) => [...v].join(','))}::text[]) AS t(id, v)`);
  }
  await db.$executeRaw`UPDATE "Site" SET "knowledgeVersion" = "knowledgeVersion" + 1 WHERE id = ${siteId}::uuid`;
  await db.$executeRaw`ANALYZE "KnowledgeExcerpt"`;
}

/** A visitor's question in the bench's words: four of the vocabulary, drawn with the same skew. */
function question(i: number): string {
  let state = i * 7919 + 17;
  const random = () => ((state = Math.imul(state ^ (state >>> 13), 0x5bd1e995) + 0x9e3779b9) >>> 0) / 2 ** 32;
  return `${Array.from({ length: 4 }, () => `word${Math.floor(random() ** 3 * VOCABULARY)}`).join(' ')}?`;
}

/** A sync of a local site of CRAWL_PAGES pages (sitemap, robots.txt, one page at a time), beside bare fetches of the same pages. */
async function measureCrawl(heed: TestHeed): Promise<KnowledgeBenchResult['crawl']> {
  const page = (n: number) =>
    `<!doctype html><html><head><title>Help ${n}</title></head><body><nav><a href="/">Home</a></nav><main><h1>Help ${n}</h1>${Array.from(
      { length: 4 },
      (_, s) => `<h2>Part ${s}</h2><p>${'Orders leave the warehouse within one working day and arrive in two. '.repeat(6)}</p>`,
    ).join('')}</main></body></html>`;
  let url = '';
  const server = createServer((req, res) => {
    if (req.url === '/sitemap.xml')
      return res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<urlset>${Array.from({ length: CRAWL_PAGES }, (_, n) => `<url><loc>${url}/help/${n}</loc></url>`).join('')}</urlset>`);
    const n = /^\/help\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (n === undefined) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(n)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const t0 = preciseNow();
    for (let n = 0; n < CRAWL_PAGES; n++) await (await fetch(`${url}/help/${n}`)).text();
    const bareSeconds = (preciseNow() - t0) / 1000;
    const siteId = (await heed.services.db.site.create({ data: { key: 'bench-crawl', name: 'Crawl' }, select: { id: true } })).id;
    const source = await heed.services.db.knowledgeSource.create({ data: { siteId, url: `${url}/sitemap.xml` }, select: { id: true } });
    const t1 = preciseNow();
    const synced = await syncSource(heed.services, source.id);
    const seconds = (preciseNow() - t1) / 1000;
    if (synced.pages !== CRAWL_PAGES) throw new Error(`the crawl read ${synced.pages} of ${CRAWL_PAGES} pages`);
    return {
      pages: CRAWL_PAGES,
      pagesPerSecond: Math.round(CRAWL_PAGES / seconds),
      bareFetchPagesPerSecond: Math.round(CRAWL_PAGES / bareSeconds),
    };
  } finally {
    server.close();
  }
}

export function formatKnowledgeRetrieval(r: KnowledgeBenchResult): string {
  return formatSection(
    '11. Site knowledge: retrieval by size, and a crawl',
    [
      `one site, ${QUERIES} questions per size; vectors of ${r.dims} dimensions; "bare FTS" is a full-text top-4 on the same table and index (the anchor)`,
      `"SQL real[] scan" is the storage not chosen: the same vectors as real[], dot products in SQL (${SQL_SCANS} scans above 10,000)`,
    ],
    `${formatTable(
      [
        'excerpts',
        'bare FTS p50',
        'text p50',
        'text p99',
        'vector scan p50',
        'hybrid p50',
        'hybrid p99',
        'SQL real[] scan p50',
        'vectors MB',
      ],
      r.sizes.map((s) => [
        String(s.excerpts),
        s.bareFtsMs.p50,
        s.textMs.p50,
        s.textMs.p99,
        s.vectorScanMs.p50,
        s.hybridMs.p50,
        s.hybridMs.p99,
        s.sqlVectorScanMs.p50,
        s.vectorMemoryMb,
      ]),
      2,
    )}\n  crawl: ${r.crawl.pages} pages at ${r.crawl.pagesPerSecond} pages/s (bare sequential fetches of the same pages: ${r.crawl.bareFetchPagesPerSecond} pages/s)`,
  );
}
