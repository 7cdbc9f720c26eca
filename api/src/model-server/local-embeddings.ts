/** Length of the local embeddings: small, and enough for a help site's words not to collide much. */
export const LOCAL_EMBEDDING_DIMS = 256;

const STOP = new Set(
  'a an and are as at be but by can do does for from had has have how i if in into is it its me my no not of on or our so that the their them there these they this to us was we were what when where which who why will with you your'.split(
    ' ',
  ),
);

/**
 * A deterministic stand-in for an embeddings model: each word's stem and its character
 * trigrams hashed into LOCAL_EMBEDDING_DIMS signed buckets (the hashing trick), scaled to length
 * one. Texts that share words or word parts ("shipped", "shipping") point the same way; it knows
 * no synonyms, which a real model does. Pure.
 * @example localEmbedding('How long is the warranty?').length // 256
 */
export function localEmbedding(text: string): number[] {
  const v = new Float64Array(LOCAL_EMBEDDING_DIMS);
  for (const word of text.toLowerCase().match(/\p{L}[\p{L}\p{N}']*|\p{N}+/gu) ?? []) {
    if (STOP.has(word)) continue;
    const stem = word.replace(/(?:ing|ed|es|s|ly|er)$/, '') || word;
    add(v, `w:${stem}`, 1);
    const marked = `<${stem}>`;
    for (let i = 0; i + 3 <= marked.length; i++) add(v, `t:${marked.slice(i, i + 3)}`, 0.4);
  }
  const norm = Math.hypot(...v) || 1;
  return [...v].map((x) => x / norm);
}

function add(v: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  v[h % LOCAL_EMBEDDING_DIMS]! += h & 0x80000000 ? -weight : weight;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
