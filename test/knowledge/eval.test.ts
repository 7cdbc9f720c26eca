import { afterAll, beforeAll, expect, test } from 'vitest';
import { EVAL_ENV, evaluateRetrieval, type EvalResult } from '../../eval/knowledge/evaluate.ts';
import { TestHeed } from '../support/harness.ts';

/**
 * The knowledge eval (`npm run eval:knowledge`) as a guard: its figures are deterministic (a
 * fixed corpus, local embeddings), so retrieval that got worse fails here. The floors sit just
 * under what retrieval scores today (docs/site-owners/knowledge.md has the figures).
 */
let heed: TestHeed;
let result: EvalResult;
beforeAll(async () => {
  heed = await TestHeed.start({ workers: 0, env: EVAL_ENV });
  result = await evaluateRetrieval(heed);
}, 120_000);
afterAll(async () => {
  await heed?.stop();
});

test('the whole corpus syncs, and every question of the set is asked', () => {
  expect(result.pages).toBe(20);
  expect(result.questions).toBeGreaterThanOrEqual(40);
});

test('text retrieval finds the right page in its first five for nine questions in ten', () => {
  expect(result.text.recallAt5).toBeGreaterThanOrEqual(0.9);
  expect(result.text.mrr).toBeGreaterThanOrEqual(0.75);
});

test('hybrid retrieval ranks the right page higher than text alone', () => {
  expect(result.hybrid.recallAt3).toBeGreaterThanOrEqual(result.text.recallAt3);
  expect(result.hybrid.recallAt5).toBeGreaterThanOrEqual(result.text.recallAt5);
  expect(result.hybrid.mrr).toBeGreaterThan(result.text.mrr);
  expect(result.hybrid.mrr).toBeGreaterThanOrEqual(0.85);
});
