import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { retrieveKnowledge } from '../../api/src/knowledge/retrieve.ts';
import { syncSource } from '../../api/src/knowledge/sync-source.ts';
import type { TestHeed } from '../../test/support/harness.ts';

/** The settings a stack needs for the eval: the corpus on loopback, and the local embeddings (word hashes score lower than a real model). */
export const EVAL_ENV = { KNOWLEDGE_ALLOW_PRIVATE: '1', EMBEDDINGS_MODEL: 'heed-local-embeddings', EMBEDDINGS_MIN_SIMILARITY: '0.15' };

const DEMO_PAGES = new URL('../../demo/pages/', import.meta.url);
const EVAL_PAGES = new URL('./pages/', import.meta.url);
const QUESTIONS = new URL('./questions.json', import.meta.url);
const LAYOUT = new URL('../../demo/layout.html', import.meta.url);

/** Recall and rank figures of one way of retrieving, over the whole question set. */
export interface RetrievalScores {
  /** share of questions whose page is among the first 3 excerpts */
  recallAt3: number;
  recallAt5: number;
  /** mean of 1 / the rank of the first excerpt from the right page (0 past the fifth) */
  mrr: number;
  /** median time of one retrieval, ms */
  medianMs: number;
}

export interface EvalResult {
  pages: number;
  excerpts: number;
  questions: number;
  /** the corpus's crawl (sitemap, robots.txt, every page) as a sync does it */
  crawlPagesPerSecond: number;
  text: RetrievalScores;
  hybrid: RetrievalScores;
  /** the questions hybrid retrieval missed in its first 5, for whoever improves it */
  hybridMisses: { question: string; page: string }[];
}

/**
 * The knowledge eval: the demo shop's help pages and the eval's own, served on loopback inside
 * the demo's layout, synced into a site by a real crawl, then every question asked of text-only
 * and of hybrid retrieval (the local model server's deterministic embeddings).
 * @example const result = await evaluateRetrieval(await TestHeed.start({ env: EVAL_ENV }))
 */
export async function evaluateRetrieval(heed: TestHeed): Promise<EvalResult> {
  const hybrid = heed.services.knowledge.hybrid;
  if (!hybrid) throw new Error('the eval needs EMBEDDINGS_MODEL (EVAL_ENV)');
  const questions = JSON.parse(await readFile(QUESTIONS, 'utf8')) as { question: string; page: string }[];
  const corpus = await servedCorpus();
  try {
    const site = await heed.services.db.site.create({ data: { key: `eval-${Date.now()}`, name: 'Eval' }, select: { id: true } });
    const source = await heed.services.db.knowledgeSource.create({
      data: { siteId: site.id, url: `${corpus.url}/sitemap.xml` },
      select: { id: true },
    });
    const t0 = performance.now();
    const synced = await syncSource(heed.services, source.id);
    const seconds = (performance.now() - t0) / 1000;
    if (synced.status !== 'synced' || synced.errors) throw new Error(`the corpus did not sync: ${JSON.stringify(synced)}`);
    const excerpts = await heed.services.db.knowledgeExcerpt.count({ where: { siteId: site.id } });
    const pageOf = (url: string | null) => url?.slice(corpus.url.length + 1) ?? '';
    const text = await score(questions, (q) => retrieveKnowledge(heed.services.sql, site.id, [q], null, 5), pageOf);
    const mixed = await score(questions, (q) => retrieveKnowledge(heed.services.sql, site.id, [q], hybrid, 5), pageOf);
    return {
      pages: synced.pages ?? 0,
      excerpts,
      questions: questions.length,
      crawlPagesPerSecond: Math.round((synced.pages ?? 0) / seconds),
      text: text.scores,
      hybrid: mixed.scores,
      hybridMisses: mixed.misses,
    };
  } finally {
    await new Promise<void>((resolve) => corpus.server.close(() => resolve()));
  }
}

async function score(
  questions: readonly { question: string; page: string }[],
  retrieve: (question: string) => ReturnType<typeof retrieveKnowledge>,
  pageOf: (url: string | null) => string,
): Promise<{ scores: RetrievalScores; misses: { question: string; page: string }[] }> {
  let at3 = 0;
  let at5 = 0;
  let reciprocal = 0;
  const times: number[] = [];
  const misses: { question: string; page: string }[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    const { hits } = await retrieve(q.question);
    times.push(performance.now() - t0);
    const rank = hits.slice(0, 5).findIndex((h) => pageOf(h.url) === q.page) + 1;
    if (rank >= 1 && rank <= 3) at3++;
    if (rank >= 1) {
      at5++;
      reciprocal += 1 / rank;
    } else misses.push(q);
  }
  const n = questions.length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  times.sort((a, b) => a - b);
  return {
    scores: {
      recallAt3: round(at3 / n),
      recallAt5: round(at5 / n),
      mrr: round(reciprocal / n),
      medianMs: round(times[Math.floor(n / 2)]!),
    },
    misses,
  };
}

/** The corpus as a small website: each page in the demo's layout, a sitemap listing them all. */
async function servedCorpus(): Promise<{ server: Server; url: string }> {
  const layout = await readFile(LAYOUT, 'utf8');
  const pages = new Map<string, string>();
  for (const dir of [DEMO_PAGES, EVAL_PAGES])
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.html'))) {
      const body = await readFile(new URL(file, dir), 'utf8');
      const title = /<h1>(.*?)<\/h1>/.exec(body)?.[1] ?? file;
      pages.set(`/${file.replace(/\.html$/, '')}`, layout.replace('{{TITLE}}', title).replace('{{CONTENT}}', body));
    }
  let url = '';
  const server = createServer((req, res) => {
    if (req.url === '/sitemap.xml') {
      const locs = [...pages.keys()].map((p) => `<url><loc>${url}${p}</loc></url>`).join('');
      return res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset>${locs}</urlset>`);
    }
    const page = pages.get(req.url ?? '');
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url };
}
