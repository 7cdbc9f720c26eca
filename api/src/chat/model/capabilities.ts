import type { Logger } from '../../logging/logger.ts';
import { FALLBACK_OF, type CompatFlag } from './compat-flags.ts';

/** One refusal learned: the model, the flag it set and the provider's own words for it. */
export interface CapabilityFinding {
  baseUrl: string;
  model: string;
  flag: CompatFlag;
  providerMessage: string | null;
}

/**
 * What the configured model server takes, per model: the flags declared in `OPENAI_COMPAT`
 * for every model, plus what was learned from refusals while the process runs (a server that
 * refused `max_tokens` once is asked with `max_completion_tokens` from then on). Each finding
 * is logged once, naming the parameter and the fallback.
 * @example const caps = new ModelCapabilities(baseUrl, ['no-stream-options']); caps.of('llama3').has('no-tools')
 */
export class ModelCapabilities {
  readonly #learned = new Map<string, Set<CompatFlag>>();

  constructor(
    /** the server's base URL: findings hold for that server only */
    readonly baseUrl: string,
    readonly declared: readonly CompatFlag[] = [],
    /** told of each new finding (services record it for the console: model-findings.ts) */
    private readonly onLearn?: (finding: CapabilityFinding) => void,
  ) {}

  /** The flags in force for `model`. */
  of(model: string): ReadonlySet<CompatFlag> {
    return this.#learned.get(model) ?? new Set(this.declared);
  }

  /**
   * Records that `model` refused what `flag` drops; true when it is new (worth a retry).
   * `providerMessage` is the provider's sentence, already made safe (provider-error.ts).
   */
  learn(model: string, flag: CompatFlag, logger?: Pick<Logger, 'warn'>, providerMessage?: string): boolean {
    const flags = this.#learned.get(model) ?? new Set(this.declared);
    if (flags.has(flag)) return false;
    flags.add(flag);
    this.#learned.set(model, flags);
    const { parameter, fallback } = FALLBACK_OF[flag];
    logger?.warn(
      { model, baseUrl: this.baseUrl, parameter, fallback, flag },
      `model server refused ${parameter}; from now on: ${fallback} (declare it with OPENAI_COMPAT=${flag})`,
    );
    this.onLearn?.({ baseUrl: this.baseUrl, model, flag, providerMessage: providerMessage ?? null });
    return true;
  }
}
