import type { SitePolicies, SitePolicy } from '../sites/site-policy.ts';
import { resolveLimits, type SiteLimits } from './site-limits.ts';

/**
 * The limits of each site (the defaults, the deployment's `RATE_LIMITS`, the site's own
 * `limits`), read on every limited request. The site row comes from the process's one
 * site cache (`SitePolicies`, a few seconds), so a change an operator makes applies
 * without a restart; the resolved limits are kept per cached row.
 * @example const { sendBurst } = await rules.forSite(siteId)
 */
export class SiteRules {
  private readonly resolved = new WeakMap<SitePolicy, SiteLimits>();
  private readonly deployment: SiteLimits;

  constructor(
    private readonly sites: SitePolicies,
    /** the `RATE_LIMITS` setting (JSON text), validated at start-up */
    deploymentOverrides: string | undefined,
  ) {
    this.deployment = resolveLimits(deploymentOverrides ? JSON.parse(deploymentOverrides) : {});
  }

  /** The limits of a site; the deployment's for `null` (an unknown site key). */
  async forSite(siteId: string | null): Promise<SiteLimits> {
    const site = siteId === null ? null : await this.sites.byId(siteId);
    if (!site) return this.deployment;
    let limits = this.resolved.get(site);
    if (!limits) this.resolved.set(site, (limits = resolveLimits(this.deployment, site.limits)));
    return limits;
  }
}
