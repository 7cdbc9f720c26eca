import OpenAI from 'openai';
import { ModelCapabilities } from './chat/model/capabilities.ts';
import { recordFinding } from './chat/model/model-findings.ts';
import { watchingFetch } from './chat/model/byte-watch.ts';
import type { Config } from './config.ts';
import { rawSql, type RawDb } from './db/raw-sql.ts';
import { createPooledDb, type Db } from './db/client.ts';
import { EventBus } from './events/event-bus.ts';
import { createRedis, keys as makeKeys, type Keys, type Redis } from './redis/client.ts';
import { SitePolicies } from './sites/site-policy.ts';
import type { DestinationStream } from 'pino';
import type { Logger } from './logging/logger.ts';
import { lineLog, type LineLog } from './logging/line-log.ts';
import { processLogger } from './logging/process-logger.ts';
import { Limits } from './limits/limits.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { storeProbes } from './metrics/store-probes.ts';
import type { FileStore } from './attachments/store/file-store.ts';
import { openFileStore } from './attachments/store/open-file-store.ts';
import { knowledgeSearchOf, type KnowledgeSearch } from './knowledge/knowledge-search.ts';

/** The process's connections, created once and passed down (no module-level singletons). */
export interface Services {
  config: Config;
  /** what the model server takes: OPENAI_COMPAT, then what its refusals taught this process */
  capabilities: ModelCapabilities;
  db: Db;
  /** the same pool past Prisma's client, for the hot path's statements and transactions (db/raw-sql.ts) */
  sql: RawDb;
  /** commands and publishes */
  redis: Redis;
  /** a dedicated pub/sub connection (a subscribed connection can run nothing else) */
  subscriber: Redis;
  keys: Keys;
  bus: EventBus;
  /** per-site policy (allowed origins, identity), cached for a few seconds */
  sites: SitePolicies;
  /** rate limits (Redis, with in-memory insurance) and each site's limits, cached for a few seconds */
  limits: Limits;
  openai: OpenAI;
  /** site knowledge search: by words, and by meaning with an embeddings model (its vectors cached here) */
  knowledge: KnowledgeSearch;
  /** the bytes of attached files: a folder (embedded mode), an S3-compatible bucket, or PostgreSQL */
  files: FileStore;
  /** the process's Prometheus registry and metrics (`GET /metrics`) */
  metrics: Metrics;
  /**
   * the process's root logger (JSON lines; pretty in development at a terminal): take a child
   * scoped by `requestId`, `workerId`, `runId` or `conversationId` (logging/logger.ts LogScope)
   */
  logger: Logger;
  /** a line on the root logger, with an optional error (described, never raw): kept for older callers, prefer `logger` */
  log: LineLog;
  close(): Promise<void>;
}

/**
 * Connects everything a process needs. `logger` is the root logger boot already made;
 * `logTo` sends this process's log lines elsewhere than stdout (tests collect them).
 */
export async function createServices(
  config: Config,
  opts: { logger?: Logger; logTo?: DestinationStream; embeddedDatabase?: boolean } = {},
): Promise<Services> {
  // every error passes through describeError (the logger's serializers): no message text, prompt or query data reaches a log
  const logger = opts.logger ?? (await processLogger(config, opts.logTo));
  const { db, pool } = createPooledDb(config.DATABASE_URL);
  const redis = await createRedis(config.REDIS_URL, 'heed', logger);
  const subscriber = await createRedis(config.REDIS_URL, 'heed-sub', logger);
  const keys = makeKeys(config.REDIS_PREFIX);
  const bus = new EventBus(redis, subscriber, keys, (err) =>
    logger.warn({ err }, 'wake-up after a commit not sent; streams read the rows on their next catch-up'),
  );
  const sites = new SitePolicies(db);
  // Retries are ours (with backoff and visible failure), so the SDK's own are off.
  const openai = new OpenAI({
    apiKey: config.OPENAI_API_KEY ?? 'not-needed-for-local-model',
    baseURL: config.OPENAI_BASE_URL,
    maxRetries: 0,
    // sees every byte of a reply's stream, SSE comments too: keep-alives are life (chat/model/byte-watch.ts)
    fetch: watchingFetch,
  });
  const sql = rawSql(pool);
  const files = await openFileStore(config, { embeddedDatabase: opts.embeddedDatabase ?? false, db });
  return {
    config,
    // each finding also goes to the database, where the console reads which features are off
    capabilities: new ModelCapabilities(serverName(config.OPENAI_BASE_URL), config.OPENAI_COMPAT ?? [], (finding) =>
      recordFinding(db, finding).catch((err) => logger.warn({ err, flag: finding.flag }, 'model finding not recorded for the console')),
    ),
    db,
    sql,
    redis,
    subscriber,
    keys,
    bus,
    sites,
    limits: new Limits({ sites, redis, prefix: config.REDIS_PREFIX, deploymentOverrides: config.RATE_LIMITS }),
    openai,
    knowledge: knowledgeSearchOf(config, sql, logger),
    files,
    metrics: createMetrics(storeProbes(pool, redis)),
    logger,
    log: lineLog(logger),
    async close() {
      await Promise.allSettled([db.$disconnect(), redis.quit(), subscriber.quit(), files.close()]);
    },
  };
}

/** The model server as a log line may name it: scheme, host and path, never credentials or a query. */
function serverName(baseUrl: string | undefined): string {
  if (!baseUrl) return 'https://api.openai.com/v1';
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}
