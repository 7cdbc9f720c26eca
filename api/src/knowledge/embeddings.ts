import OpenAI from 'openai';
import type { Config } from '../config.ts';

/** Texts one embeddings request carries: servers cap a request's inputs (OpenAI at 2,048). */
export const EMBED_BATCH = 64;

/** Turns texts into unit-length vectors with the deployment's embeddings model. */
export interface Embedder {
  /** the model's name, kept beside nothing: a model change means re-embedding (`embedPending` after clearing) */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * The embeddings model of the deployment's settings (`EMBEDDINGS_MODEL`, served at
 * `EMBEDDINGS_BASE_URL` or the chat model's server), through the official SDK; null without one.
 * Vectors come back scaled to length 1, so a dot product is their cosine similarity.
 * @example const v = await embedderOf(config)?.embed(['How much is shipping?']) // [Float32Array(256)]
 */
export function embedderOf(
  c: Pick<
    Config,
    | 'EMBEDDINGS_MODEL'
    | 'EMBEDDINGS_BASE_URL'
    | 'EMBEDDINGS_API_KEY'
    | 'EMBEDDINGS_DIMENSIONS'
    | 'EMBEDDINGS_TIMEOUT_MS'
    | 'OPENAI_BASE_URL'
    | 'OPENAI_API_KEY'
  >,
): Embedder | null {
  const model = c.EMBEDDINGS_MODEL;
  if (!model) return null;
  const client = new OpenAI({
    apiKey: c.EMBEDDINGS_API_KEY ?? c.OPENAI_API_KEY ?? 'not-needed-for-local-model',
    baseURL: c.EMBEDDINGS_BASE_URL ?? c.OPENAI_BASE_URL,
    timeout: c.EMBEDDINGS_TIMEOUT_MS,
    maxRetries: 1,
  });
  return {
    model,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const res = await client.embeddings.create(
        { model, input: [...texts], encoding_format: 'float', ...(c.EMBEDDINGS_DIMENSIONS ? { dimensions: c.EMBEDDINGS_DIMENSIONS } : {}) },
        { signal },
      );
      const vectors = [...res.data].sort((a, b) => a.index - b.index).map((d) => unit(Float32Array.from(d.embedding)));
      if (vectors.length !== texts.length)
        throw new Error(`the embeddings server answered ${vectors.length} vectors for ${texts.length} texts`);
      return vectors;
    },
  };
}

/** The vector scaled to length 1 (a zero vector stays zero: it matches nothing). */
export function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/** A vector as the `KnowledgeExcerpt.embedding` column stores it: float32, little-endian. */
export function vectorBytes(v: Float32Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return out;
}

/** The vector a `KnowledgeExcerpt.embedding` value holds. */
export function bytesVector(b: Uint8Array): Float32Array {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(b.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
