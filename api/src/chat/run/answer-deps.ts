import type OpenAI from 'openai';
import type { Db } from '../../db/client.ts';
import type { RawDb } from '../../db/raw-sql.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Keys, Redis } from '../../redis/client.ts';
import type { SitePolicies } from '../../sites/site-policy.ts';
import type { Price } from '../../titles/pricing.ts';
import type { ModelCapabilities } from '../model/capabilities.ts';
import type { HybridSearch } from '../../knowledge/retrieve.ts';
import type { FileStore } from '../../attachments/store/file-store.ts';

/** What answering a batch needs: stores, the model client, and the limits of one run. */
export interface AnswerDeps {
  db: Db;
  /** the same pool past Prisma's client: the claim, the run's reads and the poll (db/raw-sql.ts) */
  sql: RawDb;
  redis: Redis;
  keys: Keys;
  bus: EventBus;
  openai: OpenAI;
  /** what the model server takes (declared in OPENAI_COMPAT, learned from refusals) */
  capabilities?: ModelCapabilities;
  /** the deployment's model (OPENAI_MODEL); a site's own `model` wins (see reply-settings.ts) */
  model: string;
  leaseMs: number;
  /** longest a run may hold its lease (RUN_MAX_MS) */
  runMaxMs: number;
  maxAttempts: number;
  /** longest silence between tokens (MODEL_TIMEOUT_MS) */
  timeoutMs: number;
  /** longest wait for the first token (MODEL_FIRST_TOKEN_TIMEOUT_MS) */
  firstTokenMs?: number;
  maxTokens: number;
  tokenBudget: number;
  /** price of `model`, for each run's cost */
  price: Price;
  /** daily spend cap of sites without their own (SPEND_CAP_USD_PER_DAY) */
  spendCapUsd: number;
  /** site knowledge by meaning as well as words (an embeddings model is set); absent: by words */
  hybrid?: HybridSearch | null;
  /** attached files' bytes: a batch's images go to the model */
  files?: FileStore;
  /** per-site settings (model, instructions, reply token cap), cached for a few seconds */
  sites: Pick<SitePolicies, 'byId'>;
  /** runs, first tokens, model errors and retries are recorded here */
  metrics: Metrics;
  log: (line: string, extra?: unknown) => void;
  /** the worker's logger (scoped by `workerId`); each run takes a child scoped by `runId` and `conversationId` */
  logger: Logger;
}
