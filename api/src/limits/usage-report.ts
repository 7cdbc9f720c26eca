import type { DbLike } from '../db/types.ts';
import { limitOverrides, resolveLimits, type LimitOverrides, type SiteLimits } from './site-limits.ts';

/** One UTC day of a site's model use. */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC */
  day: string;
  modelRequests: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** replies refused because the day's spend had reached the cap */
  capRefusals: number;
}

/** What the operator console shows of a site: its usage, its cap and its limits. */
export interface SiteUsageReport {
  site: { key: string; name: string };
  spendCap: {
    /** the cap that applies today, USD per UTC day */
    dailyUsd: number;
    /** `site`: the site's own `dailySpendCapUsd`; `default`: the deployment's SPEND_CAP_USD_PER_DAY */
    source: 'site' | 'default';
    /** today's spend reached it: replies are refused politely and titles skipped until 00:00 UTC */
    reached: boolean;
    remainingUsd: number;
  };
  limits: {
    /** what applies: defaults, then the deployment's RATE_LIMITS, then the site's overrides */
    effective: SiteLimits;
    /** the site's own overrides, as stored */
    overrides: LimitOverrides;
  };
  /** the last `days` UTC days, today first, days without use included as zeros */
  days: UsageDay[];
}

/**
 * A site's usage report for the operator API (and the console to come). Reads the day rows
 * (a few per site and day, summed) and the site's settings; never any conversation content.
 * @example await siteUsageReport(db, { siteKey: 'demo', days: 7, defaultCapUsd: 25, deploymentLimits: config.RATE_LIMITS })
 */
export async function siteUsageReport(
  db: DbLike,
  opts: { siteKey: string; days: number; defaultCapUsd: number; deploymentLimits?: string },
): Promise<SiteUsageReport | null> {
  const site = await db.site.findUnique({
    where: { key: opts.siteKey },
    select: { id: true, key: true, name: true, limits: true, dailySpendCapUsd: true },
  });
  if (!site) return null;
  const rows = await db.$queryRaw<
    { day: string; modelRequests: number; promptTokens: number; completionTokens: number; costUsd: string; capRefusals: number }[]
  >`
    SELECT to_char(d, 'YYYY-MM-DD') AS day,
           coalesce(sum(u."modelRequests"), 0)::int AS "modelRequests",
           coalesce(sum(u."promptTokens"), 0)::float8 AS "promptTokens",
           coalesce(sum(u."completionTokens"), 0)::float8 AS "completionTokens",
           coalesce(sum(u."costUsd"), 0)::text AS "costUsd",
           coalesce(sum(u."capRefusals"), 0)::int AS "capRefusals"
    FROM generate_series((now() AT TIME ZONE 'UTC')::date - ${opts.days - 1}::int, (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d
    -- a day is spread over a few rows (site-usage.ts, USAGE_SHARDS): their sum
    LEFT JOIN "SiteUsage" u ON u."siteId" = ${site.id}::uuid AND u.day = d::date
    GROUP BY d
    ORDER BY d DESC`;
  const days = rows.map((r) => ({ ...r, costUsd: Number(r.costUsd) }));
  const dailyUsd = site.dailySpendCapUsd === null ? opts.defaultCapUsd : Number(site.dailySpendCapUsd);
  const spent = days[0]?.costUsd ?? 0;
  const overrides = limitOverrides.safeParse(site.limits);
  return {
    site: { key: site.key, name: site.name },
    spendCap: {
      dailyUsd,
      source: site.dailySpendCapUsd === null ? 'default' : 'site',
      reached: spent >= dailyUsd,
      remainingUsd: Math.max(0, dailyUsd - spent),
    },
    limits: {
      effective: resolveLimits(opts.deploymentLimits ? JSON.parse(opts.deploymentLimits) : {}, site.limits),
      overrides: overrides.success ? overrides.data : {},
    },
    days,
  };
}
