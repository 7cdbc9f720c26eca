import type { VisitorClaims } from '../auth/visitor-token.ts';
import type { Services } from '../services.ts';
import type { Slot } from './stream-slots.ts';
import { tooManyRequests } from './too-many-requests.ts';

/** Who a limit counts: the request's client address (for a visitor's limits, the visitor too). */
interface Caller {
  services: Services;
  /** the client's address key (address-key.ts `clientAddressKey`): a keyed hash, never the address itself */
  ip: string;
}

type VisitorCaller = Caller & { visitor: VisitorClaims };

/**
 * `session.start`: per client address and site. Call it first, before any work; an unknown
 * site key counts under the deployment's limits, so guessing keys is limited too.
 * @example await limitSessionStart(ctx, input.siteKey)
 */
export async function limitSessionStart(ctx: Caller, siteKey: string): Promise<void> {
  const site = await ctx.services.sites.byKey(siteKey);
  const over = await ctx.services.limits.sessionStart(site?.id ?? null, ctx.ip);
  if (over) throw tooManyRequests(over);
}

/**
 * `message.send` (and `intent.fire`): the visitor's burst and sustained windows, and the client
 * address's window across visitors. Run before the input is read (trpc/send-limits.ts), so
 * invalid sends count too.
 * @example await limitSend(ctx)
 */
export async function limitSend(ctx: VisitorCaller): Promise<void> {
  const over = await ctx.services.limits.send(ctx.visitor, ctx.ip);
  if (over) throw tooManyRequests(over);
}

/**
 * `visitor.page`: the visitor's page reports in their window. Run before the input is read, so
 * invalid reports count too.
 * @example await limitPageReport(ctx)
 */
export async function limitPageReport(ctx: VisitorCaller): Promise<void> {
  const over = await ctx.services.limits.pageReport(ctx.visitor);
  if (over) throw tooManyRequests(over);
}

/**
 * An event stream's slot, per visitor and per client address; release it when the stream
 * ends (a slot that is never released expires after a minute).
 * @example const slot = await openStreamSlot(ctx); try { … } finally { await slot.release() }
 */
export async function openStreamSlot(ctx: VisitorCaller): Promise<Slot> {
  const slot = await ctx.services.limits.openStream(ctx.visitor, ctx.ip);
  if ('reason' in slot) throw tooManyRequests(slot);
  return slot;
}
