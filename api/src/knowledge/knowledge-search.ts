import type { Config } from '../config.ts';
import type { RawSql } from '../db/raw-sql.ts';
import type { Logger } from '../logging/logger.ts';
import { embedderOf, type Embedder } from './embeddings.ts';
import type { HybridSearch } from './retrieve.ts';
import { VectorIndex } from './vector-index.ts';

/** How this process searches site knowledge: by words always, by meaning too when an embeddings model is set. */
export interface KnowledgeSearch {
  embedder: Embedder | null;
  hybrid: HybridSearch | null;
}

/**
 * The process's knowledge search from its settings (`EMBEDDINGS_*`, `KNOWLEDGE_VECTOR_CACHE_MB`).
 * @example const { hybrid } = knowledgeSearchOf(config, sql, logger) // null without EMBEDDINGS_MODEL
 */
export function knowledgeSearchOf(config: Config, sql: RawSql, logger: Logger): KnowledgeSearch {
  const embedder = embedderOf(config);
  if (!embedder) return { embedder: null, hybrid: null };
  return {
    embedder,
    hybrid: {
      embedder,
      vectors: new VectorIndex(sql, config.KNOWLEDGE_VECTOR_CACHE_MB * 1024 * 1024, embedder.model),
      minSimilarity: config.EMBEDDINGS_MIN_SIMILARITY,
      onError: (err) => logger.warn({ err }, 'question not embedded; site knowledge searched by its words only'),
    },
  };
}
