import type { Db, Prisma } from '../db/client.ts';

/**
 * What a request or a run needs to know about its site: who may call, whether identity is
 * required, its limit overrides, the widget's branding and the reply settings.
 */
export type SitePolicy = Prisma.SiteGetPayload<{ select: typeof POLICY }>;

/**
 * Every request checks its site's policy, so it is cached per process for `ttlMs`: a
 * change in the console applies within seconds, without a restart, at one query per site
 * per interval instead of one per request.
 */
export class SitePolicies {
  private readonly cache = new Map<string, { policy: SitePolicy | null; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5_000,
  ) {}

  byId(id: string): Promise<SitePolicy | null> {
    return this.cached(`id:${id}`, () => this.db.site.findUnique({ where: { id }, select: POLICY }));
  }

  byKey(key: string): Promise<SitePolicy | null> {
    return this.cached(`key:${key}`, () => this.db.site.findUnique({ where: { key }, select: POLICY }));
  }

  /** Forgets what is cached (a test or an operator changed a site in this process; other processes follow within the TTL). */
  clear(): void {
    this.cache.clear();
  }

  private async cached(key: string, load: () => Promise<SitePolicy | null>): Promise<SitePolicy | null> {
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.policy;
    const policy = await load();
    if (this.cache.size > 10_000) this.cache.clear(); // bounded: site keys come from the open internet
    this.cache.set(key, { policy, until: Date.now() + this.ttlMs });
    return policy;
  }
}

const POLICY = {
  id: true,
  key: true,
  name: true,
  allowedOrigins: true,
  requireIdentity: true,
  identitySecrets: true,
  /** the rate-limit overrides as stored (validated by `resolveLimits`) */
  limits: true,
  assistantName: true,
  greeting: true,
  greetings: true,
  accentColor: true,
  launcherPosition: true,
  /** page reports are stored, and the widget told to send them, only when the owner turned this on */
  shareVisitorPages: true,
  /** what visitors may attach, and how much (uploads and sends check them) */
  attachmentKinds: true,
  attachmentMaxBytes: true,
  attachmentMessageMaxBytes: true,
  systemPrompt: true,
  model: true,
  replyMaxTokens: true,
} as const satisfies Prisma.SiteSelect;
