import type { Services } from '../../services.ts';
import { ReplyWorker } from './worker.ts';
import type { AnswerOutcome } from '../run/answer-batch.ts';
import type { AnswerDeps } from '../run/answer-deps.ts';
import { priceOf } from '../../titles/pricing.ts';

/** Builds a reply worker from the process's services and configuration. */
export function createReplyWorker(
  s: Services,
  opts: { onRun?: (conversationId: string, outcome: AnswerOutcome) => void } = {},
): ReplyWorker {
  const c = s.config;
  return new ReplyWorker({
    ...answerDepsOf(s),
    subscriber: s.subscriber,
    limits: s.limits,
    settleMs: Math.min(c.SEND_SETTLE_MS, c.DEBOUNCE_MS),
    debounceMs: c.DEBOUNCE_MS,
    maxWaitMs: c.MAX_WAIT_MS,
    concurrency: c.WORKER_CONCURRENCY,
    pollMs: c.WORKER_POLL_MS,
    onRun: opts.onRun,
  });
}

/** What one run is given, from the process's services and configuration (tests build runs from it too). */
export function answerDepsOf(s: Services): AnswerDeps {
  const c = s.config;
  return {
    db: s.db,
    sql: s.sql,
    redis: s.redis,
    keys: s.keys,
    bus: s.bus,
    openai: s.openai,
    capabilities: s.capabilities,
    hybrid: s.knowledge.hybrid,
    files: s.files,
    sites: s.sites,
    log: s.log,
    logger: s.logger,
    metrics: s.metrics,
    model: c.OPENAI_MODEL,
    leaseMs: c.LEASE_MS,
    runMaxMs: c.RUN_MAX_MS,
    maxAttempts: c.MODEL_MAX_ATTEMPTS,
    timeoutMs: c.MODEL_TIMEOUT_MS,
    firstTokenMs: c.MODEL_FIRST_TOKEN_TIMEOUT_MS,
    maxTokens: c.MODEL_MAX_TOKENS,
    tokenBudget: c.CONTEXT_TOKEN_BUDGET,
    price: priceOf(c.OPENAI_MODEL, { input: c.MODEL_PRICE_INPUT_USD, output: c.MODEL_PRICE_OUTPUT_USD }),
    spendCapUsd: c.SPEND_CAP_USD_PER_DAY,
  };
}
