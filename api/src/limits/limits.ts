import type { SitePolicies } from '../sites/site-policy.ts';
import type { Redis } from '../redis/client.ts';
import { SiteRules } from './site-rules.ts';
import type { WindowRule } from './site-limits.ts';
import { StreamSlots, type Slot } from './stream-slots.ts';
import { WindowLimiters, type Verdict } from './window-limiters.ts';

/** A refused request: a reason a client can act on (`data.reason`), and when to try again. */
export interface OverLimit {
  reason: OverLimitReason;
  retryAfterMs: number;
}

export type OverLimitReason =
  | 'session_start_limit'
  | 'send_burst_limit'
  | 'send_sustained_limit'
  | 'send_ip_limit'
  | 'page_report_limit'
  | 'upload_limit'
  | 'streams_per_visitor_limit'
  | 'streams_per_ip_limit';

/** Whose action it is: a visitor of a site. */
export interface VisitorOf {
  siteId: string;
  visitorId: string;
}

/**
 * A full stream set frees when one of its streams closes, which no counter can predict;
 * the widget reconnects with its own backoff anyway.
 */
const STREAM_RETRY_MS = 10_000;

/**
 * Every rate limit, per site (see `site-limits.ts` for the numbers and why): one object per
 * process, on `Services`, whose methods say whether an action may happen. Redis holds the
 * counts for the whole deployment; each limiter falls back to this process's memory while
 * Redis is away. Keys live under `<REDIS_PREFIX>limit:` and expire with their window.
 *
 * Per-address limits take the request's address key (`clientAddressKey`, address-key.ts), a
 * keyed hash: no key or value here carries a client's address.
 * @example const over = await services.limits.send(ctx.visitor, ctx.ip); if (over) throw tooManyRequests(over)
 */
export class Limits {
  readonly sites: SiteRules;
  private readonly windows: WindowLimiters;
  private readonly slots: StreamSlots;
  private readonly prefix: string;

  constructor(deps: { sites: SitePolicies; redis: Redis; prefix: string; deploymentOverrides?: string }) {
    this.sites = new SiteRules(deps.sites, deps.deploymentOverrides);
    this.windows = new WindowLimiters(deps.redis, deps.prefix);
    this.slots = new StreamSlots(deps.redis);
    this.prefix = deps.prefix;
  }

  /** `session.start` from the address `ip` (its key) for a site (`null`: an unknown key, counted under the deployment's limits). */
  async sessionStart(siteId: string | null, ip: string): Promise<OverLimit | null> {
    const { sessionStart } = await this.sites.forSite(siteId);
    return over('session_start_limit', await this.windows.consume('sessionStart', sessionStart, `${siteId ?? 'unknown'}:${ip}`));
  }

  /**
   * One `message.send` of a visitor from `ip`: the visitor's burst and sustained windows and the
   * address's window (per site, across every visitor of that address) all count it.
   */
  async send(visitor: VisitorOf, ip: string): Promise<OverLimit | null> {
    const { sendBurst, sendSustained, sendsPerIp } = await this.sites.forSite(visitor.siteId);
    const [burst, sustained, address] = await Promise.all([
      this.windows.consume('sendBurst', sendBurst, visitor.visitorId),
      this.windows.consume('sendSustained', sendSustained, visitor.visitorId),
      this.windows.consume('sendsPerIp', sendsPerIp, `${visitor.siteId}:${ip}`),
    ]);
    return over('send_sustained_limit', sustained) ?? over('send_ip_limit', address) ?? over('send_burst_limit', burst);
  }

  /**
   * One attachment upload of `bytes` by a visitor from `ip`: the visitor's upload count and
   * megabytes, and the address's send window (one window for everything an address writes).
   */
  async upload(visitor: VisitorOf, ip: string, bytes: number): Promise<OverLimit | null> {
    const { uploads, uploadMegabytes, sendsPerIp } = await this.sites.forSite(visitor.siteId);
    const [count, megabytes, address] = await Promise.all([
      this.windows.consume('uploads', uploads, visitor.visitorId),
      this.windows.consume('uploadMegabytes', uploadMegabytes, visitor.visitorId, Math.max(1, Math.ceil(bytes / 1_000_000))),
      this.windows.consume('sendsPerIp', sendsPerIp, `${visitor.siteId}:${ip}`),
    ]);
    return over('upload_limit', count) ?? over('upload_limit', megabytes) ?? over('send_ip_limit', address);
  }

  /** One report of the host page (`visitor.page`) by the visitor. */
  async pageReport(visitor: VisitorOf): Promise<OverLimit | null> {
    const { pageReports } = await this.sites.forSite(visitor.siteId);
    return over('page_report_limit', await this.windows.consume('pageReports', pageReports, visitor.visitorId));
  }

  /** One model run (a reply) for the visitor; a refused run waits `retryAfterMs` and asks again. */
  async modelRun(visitor: VisitorOf): Promise<Verdict> {
    return this.windows.consume('modelRuns', await this.runRule(visitor), visitor.visitorId);
  }

  /** Gives back a run counted by `modelRun` that did not happen (nothing was left to claim). */
  async refundModelRun(visitor: VisitorOf): Promise<void> {
    await this.windows.refund('modelRuns', await this.runRule(visitor), visitor.visitorId);
  }

  /** Takes a slot for an event stream of the visitor from `ip`; release it when the stream ends. */
  async openStream(visitor: VisitorOf, ip: string): Promise<Slot | OverLimit> {
    const { streamsPerVisitor, streamsPerIp } = await this.sites.forSite(visitor.siteId);
    const slot = await this.slots.acquire([
      { key: `${this.prefix}limit:streams:visitor:${visitor.visitorId}`, max: streamsPerVisitor },
      { key: `${this.prefix}limit:streams:ip:${visitor.siteId}:${ip}`, max: streamsPerIp },
    ]);
    if (typeof slot !== 'number') return slot;
    return { reason: slot === 0 ? 'streams_per_visitor_limit' : 'streams_per_ip_limit', retryAfterMs: STREAM_RETRY_MS };
  }

  private async runRule(visitor: VisitorOf): Promise<WindowRule> {
    return (await this.sites.forSite(visitor.siteId)).modelRuns;
  }
}

const over = (reason: OverLimitReason, verdict: Verdict): OverLimit | null =>
  verdict.ok ? null : { reason, retryAfterMs: verdict.retryAfterMs };
