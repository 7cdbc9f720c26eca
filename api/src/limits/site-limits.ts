import { z } from 'zod';

/** `points` actions per fixed window of `seconds`, per key (a visitor, or a site's client address). */
export const windowRule = z.strictObject({
  points: z.number().int().min(1).max(1_000_000),
  seconds: z.number().int().min(1).max(86_400),
});
export type WindowRule = z.infer<typeof windowRule>;

const concurrent = z.number().int().min(1).max(100_000);

/** Every rate limit a site has; `Site.limits` and `RATE_LIMITS` hold any subset of it. */
export const siteLimitsSchema = z.strictObject({
  /** `session.start` per client address (per site) */
  sessionStart: windowRule,
  /** `message.send` per visitor, short window */
  sendBurst: windowRule,
  /** `message.send` per visitor, long window */
  sendSustained: windowRule,
  /** `message.send` per client address (per site), across all its visitors */
  sendsPerIp: windowRule,
  /** model runs (replies) per visitor; a run over it waits, it never fails */
  modelRuns: windowRule,
  /** `visitor.page` (the widget's reports of the host page) per visitor */
  pageReports: windowRule,
  /** attachment uploads per visitor (each also counts against `sendsPerIp`) */
  uploads: windowRule,
  /** attachment megabytes per visitor (a 2.5 MB file counts 3) */
  uploadMegabytes: windowRule,
  /** event streams open at once per visitor */
  streamsPerVisitor: concurrent,
  /** event streams open at once per client address (per site) */
  streamsPerIp: concurrent,
});
export type SiteLimits = z.infer<typeof siteLimitsSchema>;

/** Overrides: any subset of the limits. Unknown keys are refused, so a typo never passes silently. */
export const limitOverrides = siteLimitsSchema.partial();
export type LimitOverrides = z.infer<typeof limitOverrides>;

/**
 * Safe defaults, sized for one person at a keyboard (a site serving offices behind one NAT
 * raises the per-address ones):
 * - sessionStart 60 / 10 min per address: the widget calls it once per page load (it resumes
 *   its token), so this is a page view every 10 s for 10 minutes; it caps how fast one
 *   address can mint fresh visitors (each with its own per-visitor budget) at 360 an hour.
 * - sendBurst 8 / 20 s: quick split thoughts ("hi" "my order" "#1042" "never came") fit, and
 *   the debounce folds them into one reply anyway; a script does not.
 * - sendSustained 120 / h: two messages a minute for a whole hour, beyond any real chat.
 * - sendsPerIp 60 / min per address: the per-visitor windows do not stop one address minting
 *   fresh visitors (up to 60 per 10 min) and spending each one's budget. 60 a minute is thirty
 *   people behind one office or carrier NAT each writing two messages a minute to the same
 *   site at the same moment, more than a shop's chat meets; a script from one address is held
 *   to one message a second, and a refused send waits and loses nothing, like the others.
 * - modelRuns 20 / 10 min: a reply every 30 s. Runs over it wait (their messages stay pending
 *   and are answered later), so the window also bounds the wait. On gpt-4o-mini that is at
 *   most ≈ $0.90 an hour per visitor (4 rounds of ~8k prompt and 1k output tokens a run),
 *   ≈ $0.08 for typical one-round replies; the daily spend cap bounds the sum of all visitors.
 * - pageReports 30 / min: the widget reports a page only when its address or title changed,
 *   a second after the last change, so this is a new page every two seconds for a minute; a
 *   script filling the visitor's row is held there, and a refused report is sent again later.
 * - uploads 30 / 10 min and uploadMegabytes 100 / h per visitor: a few screenshots a minute for
 *   ten minutes, ten 10 MB files an hour; a script filling the store is held there, and each
 *   upload also counts against `sendsPerIp`, so fresh visitors from one address do not multiply it.
 * - streamsPerVisitor 5: one stream per open tab; five tabs of one shop is already many.
 * - streamsPerIp 50: an office or a mobile carrier's NAT, at ≈ 53 KB of memory a stream.
 */
export const DEFAULT_LIMITS: SiteLimits = {
  sessionStart: { points: 60, seconds: 600 },
  sendBurst: { points: 8, seconds: 20 },
  sendSustained: { points: 120, seconds: 3600 },
  sendsPerIp: { points: 60, seconds: 60 },
  modelRuns: { points: 20, seconds: 600 },
  pageReports: { points: 30, seconds: 60 },
  uploads: { points: 30, seconds: 600 },
  uploadMegabytes: { points: 100, seconds: 3600 },
  streamsPerVisitor: 5,
  streamsPerIp: 50,
};

/**
 * The limits that apply: the defaults, then each layer of overrides in order (the
 * deployment's `RATE_LIMITS`, then the site's `limits`). Layers come from storage, so each
 * key is checked on its own: one invalid key falls back to the layer below, the rest apply.
 * @example resolveLimits({ sendBurst: { points: 3, seconds: 10 } }, site.limits)
 */
export function resolveLimits(...layers: unknown[]): SiteLimits {
  const limits: Record<string, unknown> = { ...DEFAULT_LIMITS };
  const shape = siteLimitsSchema.shape;
  for (const layer of layers) {
    if (!layer || typeof layer !== 'object' || Array.isArray(layer)) continue;
    for (const [key, value] of Object.entries(layer)) {
      const rule = shape[key as keyof SiteLimits];
      const parsed = rule?.safeParse(value);
      if (parsed?.success) limits[key] = parsed.data;
    }
  }
  return limits as SiteLimits;
}
