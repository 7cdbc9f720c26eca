import { expect, test } from 'vitest';
import { LOCAL_EMBEDDING_DIMS, localEmbedding } from './local-embeddings.ts';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

test('the same text always gets the same unit vector', () => {
  const v = localEmbedding('How long does shipping take?');
  expect(v).toHaveLength(LOCAL_EMBEDDING_DIMS);
  expect(localEmbedding('How long does shipping take?')).toEqual(v);
  expect(cosine(v, v)).toBeCloseTo(1, 6);
});

test('other forms of a word point the same way; unrelated words do not', () => {
  const page = localEmbedding('Orders are shipped within one working day.');
  expect(cosine(localEmbedding('when is my order shipping'), page)).toBeGreaterThan(0.3);
  expect(cosine(localEmbedding('Can I bring my dog?'), page)).toBeLessThan(0.1);
});
