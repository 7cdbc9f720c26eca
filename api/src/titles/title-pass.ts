import type { Services } from '../services.ts';
import { providerError } from '../chat/model/provider-error.ts';
import { spendCapReached } from '../limits/site-usage.ts';
import { costUsd, worstCaseCostUsd } from './pricing.ts';
import { claimTitleRequests, recoverTitleLeases, type ClaimedTitle } from './title-claims.ts';
import { decideTitle } from './decide-title.ts';
import { loadTitleInput } from './title-input.ts';
import { titleMessages } from './title-prompt.ts';
import { callTitleModel } from './title-call.ts';
import type { TitleSettings } from './title-settings.ts';
import { failTitle, releaseTitle, storeTitle, type TitleCheckFacts, type TitleOutcome } from './title-writes.ts';

export type TitlePassDeps = Pick<Services, 'db' | 'bus' | 'openai' | 'logger' | 'metrics' | 'capabilities'>;

export interface TitlePassResult {
  /** expired `generating` leases given back before claiming */
  recovered: number;
  claimed: number;
  outcomes: Record<TitleOutcome, number>;
}

/**
 * Rounds of claims a pass makes at most. Each round claims `concurrency` requests and
 * titles them together; its lease starts at its own claim, so a request never waits out
 * its lease behind another round. 10 rounds of 4 at ≤ 20 s each bounds a pass (and the
 * cron request running it) to about 200 s in the worst case, with every call timing out.
 */
const MAX_ROUNDS = 10;

/**
 * One title pass, shared by the in-process timer and the cron route: recover expired
 * leases, then claim due requests and title them with bounded concurrency. Safe to run in
 * any number of processes at once (claims skip each other). Never throws for one
 * conversation's problem: it is logged, and its lease expiry gives the request back.
 * @example const { outcomes } = await runTitlePass(services, titleSettings(services.config))
 */
export async function runTitlePass(
  deps: TitlePassDeps,
  settings: TitleSettings,
  opts: { signal?: AbortSignal } = {},
): Promise<TitlePassResult> {
  const signal = opts.signal ?? new AbortController().signal;
  const result: TitlePassResult = {
    recovered: await recoverTitleLeases(deps.db),
    claimed: 0,
    outcomes: { changed: 0, kept: 0, failed: 0, rejected: 0, skipped: 0 },
  };
  for (let round = 0; round < MAX_ROUNDS && !signal.aborted; round++) {
    const claims = await claimTitleRequests(deps.db, { limit: settings.concurrency, leaseMs: settings.leaseMs });
    result.claimed += claims.length;
    const settled = await Promise.allSettled(claims.map((claim) => titleOne(deps, settings, claim, signal)));
    for (const [i, s] of settled.entries()) {
      if (s.status === 'fulfilled') {
        result.outcomes[s.value]++;
        deps.metrics.titleChecks.inc({ outcome: s.value });
      } else
        deps.logger.error({ conversationId: claims[i]!.id, err: s.reason }, 'title check failed; its lease will expire and it is retried');
    }
    if (claims.length < settings.concurrency) break;
  }
  return result;
}

/**
 * Checks one claimed conversation's title: at most one model call, then exactly one audited
 * write. A site at its daily spend cap gets no call: the title stays, audited `skipped`.
 */
async function titleOne(deps: TitlePassDeps, settings: TitleSettings, claim: ClaimedTitle, signal: AbortSignal): Promise<TitleOutcome> {
  const facts: TitleCheckFacts = {
    model: settings.model,
    promptTokens: null,
    completionTokens: null,
    costUsd: null,
    latencyMs: null,
    errorCode: null,
  };
  const fail = (outcome: 'failed' | 'rejected', errorCode: string) =>
    failTitle(deps, claim, { outcome, maxAttempts: settings.maxAttempts }, { ...facts, errorCode });

  if (await spendCapReached(deps.db, claim.siteId, settings.spendCapUsd)) return releaseTitle(deps, claim, facts, 'spend_cap');

  const input = await loadTitleInput(deps.db, claim.id);
  if (input.first.length + input.latest.length === 0) return fail('failed', 'no_input');
  const messages = titleMessages({ currentTitle: claim.title, source: claim.source, input });
  const worstCase = worstCaseCostUsd(settings.price, { messages: messages.map((m) => m.content), maxTokens: settings.maxTokens });
  if (worstCase > settings.costCeilingUsd) return fail('failed', 'cost_ceiling');

  const call = await callTitleModel(deps, settings, messages, signal);
  facts.latencyMs = call.latencyMs;
  if (call.kind === 'interrupted') return releaseTitle(deps, claim, facts);
  if (call.kind === 'error') {
    deps.logger.warn(
      { conversationId: claim.id, code: call.code, err: call.cause, provider: providerError(call.cause, messages) },
      `title call failed: ${call.code}`,
    );
    return fail('failed', call.code);
  }
  const usage = call.completion.usage;
  facts.promptTokens = usage?.prompt_tokens ?? null;
  facts.completionTokens = usage?.completion_tokens ?? null;
  // Without usage the bill is unknown; the worst case stands in for it.
  facts.costUsd = usage
    ? costUsd(settings.price, { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens })
    : worstCase;
  deps.metrics.titleCostUsd.inc(facts.costUsd);
  if (facts.costUsd > settings.costCeilingUsd) return fail('failed', 'cost_ceiling');

  const message = call.completion.choices[0]?.message;
  if (message?.refusal) return fail('rejected', 'model_refused');
  const decision = decideTitle({ title: claim.title, source: claim.source }, message?.content ?? null, { prose: call.prose });
  if (decision.outcome === 'rejected') {
    deps.logger.warn(
      { conversationId: claim.id, code: decision.errorCode, reason: decision.reason },
      `title answer rejected: ${decision.reason}`,
    );
    return fail('rejected', decision.errorCode);
  }
  return storeTitle(deps, claim, decision, facts);
}
