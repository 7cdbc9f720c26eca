import { COMPAT_FLAGS, FALLBACK_OF, type CompatFlag } from '../../chat/model/compat-flags.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SiteScope } from '../../operators/site-access.ts';

/** One flag in force for a model: declared in OPENAI_COMPAT, or learned from the server's refusal. */
export interface ModelFlagView {
  flag: CompatFlag;
  /** the request parameter the server did not take, and how Heed asks instead */
  parameter: string;
  fallback: string;
  /** what it means for the console's users */
  consequence: string;
  /** a feature is off (not just a parameter renamed) */
  featuresOff: boolean;
  source: 'declared' | 'learned';
  /** the provider's own words for the refusal (learned flags only) */
  providerMessage: string | null;
  /** first learned and last learned again by a starting process (ISO), learned flags only */
  learnedAt: string | null;
  seenAt: string | null;
}

/** A model on the configured server, what uses it, and the flags in force for it. */
export interface ModelView {
  model: string;
  /** "Replies (deployment default)", "Titles", or the names of the sites that chose it; empty: none now */
  usedBy: string[];
  flags: ModelFlagView[];
}

export interface ModelStatusView {
  /** the model server (scheme, host and path) */
  server: string;
  models: ModelView[];
}

/**
 * Which features are off for each model on the configured model server, and why: the flags
 * declared in `OPENAI_COMPAT` (for every model) and those any process learned from a refusal
 * (chat/model/model-findings.ts). Sites are those the operator may see.
 * @example await modelStatus(db, config, server, null) // { server, models: [{ model: 'llama3', usedBy: [...], flags: [...] }] }
 */
export async function modelStatus(db: Db, config: Config, server: string, scope: SiteScope): Promise<ModelStatusView> {
  const [findings, sites] = await Promise.all([
    db.modelFinding.findMany({ where: { baseUrl: server }, orderBy: [{ model: 'asc' }, { learnedAt: 'asc' }] }),
    db.site.findMany({
      where: { model: { not: null }, ...(scope ? { id: { in: [...scope] } } : {}) },
      select: { name: true, model: true },
      orderBy: { name: 'asc' },
    }),
  ]);
  const usedBy = new Map<string, string[]>();
  const use = (model: string, by: string) => usedBy.set(model, [...(usedBy.get(model) ?? []), by]);
  use(config.OPENAI_MODEL, 'Replies (deployment default)');
  use(config.TITLE_MODEL || config.OPENAI_MODEL, 'Titles');
  for (const site of sites) use(site.model!, site.name);
  for (const f of findings) if (!usedBy.has(f.model)) usedBy.set(f.model, []);

  const declared = (config.OPENAI_COMPAT ?? []) as readonly CompatFlag[];
  const models = [...usedBy].map(([model, by]): ModelView => {
    const learned = findings.filter((f) => f.model === model && isFlag(f.flag) && !declared.includes(f.flag));
    const flags = [
      ...declared.map((flag) => flagView(flag, 'declared', null)),
      ...learned.map((f) => flagView(f.flag as CompatFlag, 'learned', f)),
    ];
    return { model, usedBy: by, flags };
  });
  return { server, models };
}

function flagView(
  flag: CompatFlag,
  source: ModelFlagView['source'],
  f: { providerMessage: string | null; learnedAt: Date; seenAt: Date } | null,
): ModelFlagView {
  const { parameter, fallback, consequence, featuresOff } = FALLBACK_OF[flag];
  return {
    flag,
    parameter,
    fallback,
    consequence,
    featuresOff,
    source,
    providerMessage: f?.providerMessage ?? null,
    learnedAt: f?.learnedAt.toISOString() ?? null,
    seenAt: f?.seenAt.toISOString() ?? null,
  };
}

const isFlag = (flag: string): flag is CompatFlag => (COMPAT_FLAGS as readonly string[]).includes(flag);
