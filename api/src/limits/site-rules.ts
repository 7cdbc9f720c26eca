import type { Db } from '../db/client.ts';
import { resolveLimits, type SiteLimits } from './site-limits.ts';

/** How long a site's limits are cached per process: a change applies everywhere within this. */
export const SITE_RULES_TTL_MS = 5_000;

/**
 * The limits of each site (the defaults, the deployment's `RATE_LIMITS`, the site's own
 * `limits`), read on every limited request, so cached per process for a few seconds: one
 * query per site per interval instead of one per request, and a change made by an operator
 * applies without a restart.
 * @example const { sendBurst } = await rules.forSite(siteId)
 */
export class SiteRules {
  private readonly cache = new Map<string, { limits: SiteLimits; until: number }>();
  private readonly deployment: SiteLimits;

  constructor(
    private readonly db: Db,
    /** the `RATE_LIMITS` setting (JSON text), validated at start-up */
    deploymentOverrides: string | undefined,
    private readonly ttlMs = SITE_RULES_TTL_MS,
  ) {
    this.deployment = resolveLimits(deploymentOverrides ? JSON.parse(deploymentOverrides) : {});
  }

  /** The limits of a site; the deployment's for `null` (an unknown site key). */
  async forSite(siteId: string | null): Promise<SiteLimits> {
    if (siteId === null) return this.deployment;
    const hit = this.cache.get(siteId);
    if (hit && hit.until > Date.now()) return hit.limits;
    const site = await this.db.site.findUnique({ where: { id: siteId }, select: { limits: true } });
    const limits = resolveLimits(this.deployment, site?.limits);
    if (this.cache.size > 10_000) this.cache.clear(); // bounded, whatever the number of sites
    this.cache.set(siteId, { limits, until: Date.now() + this.ttlMs });
    return limits;
  }

  /** Drops a site's cached limits (this process changed them). Other processes follow within the TTL. */
  forget(siteId: string): void {
    this.cache.delete(siteId);
  }
}
