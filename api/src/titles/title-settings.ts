import type { Config } from '../config.ts';
import { priceOf, type Price } from './pricing.ts';

/** Everything one title pass needs to know, resolved once from the configuration. */
export interface TitleSettings {
  model: string;
  maxTokens: number;
  timeoutMs: number;
  costCeilingUsd: number;
  price: Price;
  /** conversations claimed and titled at once */
  concurrency: number;
  maxAttempts: number;
  leaseMs: number;
  /** daily spend cap of sites without their own: over it, titles are skipped */
  spendCapUsd: number;
}

/**
 * @example runTitlePass(services, titleSettings(services.config))
 */
export function titleSettings(config: Config): TitleSettings {
  const model = config.TITLE_MODEL || config.OPENAI_MODEL;
  return {
    model,
    maxTokens: config.TITLE_MAX_TOKENS,
    timeoutMs: config.TITLE_TIMEOUT_MS,
    costCeilingUsd: config.TITLE_COST_CEILING_USD,
    price: priceOf(model, { input: config.TITLE_PRICE_INPUT_USD, output: config.TITLE_PRICE_OUTPUT_USD }),
    concurrency: config.TITLE_CONCURRENCY,
    maxAttempts: config.TITLE_MAX_ATTEMPTS,
    leaseMs: config.TITLE_LEASE_MS,
    spendCapUsd: config.SPEND_CAP_USD_PER_DAY,
  };
}
