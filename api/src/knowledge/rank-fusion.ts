/** Reciprocal rank fusion's constant: the usual 60, which damps the difference between the first few ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list ranks excerpt ids best first; an id scores Σ 1 / (RRF_K + rank)
 * over the lists it is in (ranks from 1). Snippets that matched at all come first (the owner's own
 * answer wins over crawled text), each group by its score, ties by first appearance. Returns the
 * best `limit` ids. Pure.
 * @example fuseRanks([['a', 'b'], ['b', 'c']], new Set(), 2) // ['b', 'a']
 */
export function fuseRanks(lists: readonly (readonly string[])[], snippets: ReadonlySet<string>, limit: number): string[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  const group = (id: string) => (snippets.has(id) ? 0 : 1);
  return [...scores.entries()]
    .sort((a, b) => group(a[0]) - group(b[0]) || b[1] - a[1])
    .slice(0, limit)
    .map(([id]) => id);
}
