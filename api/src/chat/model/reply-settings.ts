import type { SitePolicy } from '../../sites/site-policy.ts';
import { priceOf, type Price } from '../../titles/pricing.ts';
import type { AnswerDeps } from '../run/answer-deps.ts';
import { systemPromptFor } from '../context/system-prompt.ts';

/** What one run asks the model with: the site's own settings where it has them, else the deployment's. */
export interface ReplySettings {
  /** the model asked (recorded as `Run.model`) */
  model: string;
  /** cap on the reply's completion tokens (per model request) */
  maxTokens: number;
  /** price of `model`, for the run's cost */
  price: Price;
  /** who the assistant is on this site, Heed's system prompt, then the site's instructions when it has some */
  systemPrompt: string;
}

/**
 * The settings of a run of this site, read through the per-site policy cache: a change in the
 * console applies to the next run within the cache's few seconds (at once in the process that
 * made it, which clears its cache), without a restart. The deployment's price override
 * (`MODEL_PRICE_*`) prices the deployment's model only; a site's own model is priced from
 * the price table.
 * @example const settings = replySettings(deps, await deps.sites.byId(batch.siteId));
 */
export function replySettings(
  deps: Pick<AnswerDeps, 'model' | 'maxTokens' | 'price'>,
  site: Pick<SitePolicy, 'model' | 'replyMaxTokens' | 'systemPrompt' | 'name' | 'assistantName'> | null,
): ReplySettings {
  const model = site?.model?.trim() || deps.model;
  return {
    model,
    maxTokens: site?.replyMaxTokens ?? deps.maxTokens,
    price: model === deps.model ? deps.price : priceOf(model),
    systemPrompt: systemPromptFor(site, site?.systemPrompt ?? null),
  };
}
