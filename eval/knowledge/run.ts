/**
 * `npm run eval:knowledge`: how well retrieval finds the page that answers each question of
 * eval/knowledge/questions.json, by words only and by words and meaning (hybrid), on a fresh
 * stack that is torn down after. Prints the figures; it measures, it does not judge.
 */
import { cpus } from 'node:os';
import { TestHeed } from '../../test/support/harness.ts';
import { EVAL_ENV, evaluateRetrieval, type RetrievalScores } from './evaluate.ts';

const heed = await TestHeed.start({ workers: 0, env: EVAL_ENV });
try {
  const r = await evaluateRetrieval(heed);
  const row = (name: string, s: RetrievalScores) =>
    `${name.padEnd(22)}${String(s.recallAt3).padStart(10)}${String(s.recallAt5).padStart(10)}${String(s.mrr).padStart(8)}${String(s.medianMs).padStart(14)}`;
  console.log(`Knowledge eval: ${r.questions} questions over ${r.pages} pages (${r.excerpts} excerpts)`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}`);
  console.log(
    `${'retrieval'.padEnd(22)}${'recall@3'.padStart(10)}${'recall@5'.padStart(10)}${'MRR'.padStart(8)}${'median ms'.padStart(14)}`,
  );
  console.log(row('text only', r.text));
  console.log(row('hybrid (local embeds)', r.hybrid));
  console.log(`crawl: ${r.crawlPagesPerSecond} pages/s (sitemap, robots.txt and every page, from loopback)`);
  if (r.hybridMisses.length)
    console.log(`hybrid misses (not in the first 5):\n${r.hybridMisses.map((m) => `  ${m.page}: ${m.question}`).join('\n')}`);
} finally {
  await heed.stop();
}
process.exit(0);
