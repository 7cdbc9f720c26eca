import { experimental_trpcMiddleware } from '@trpc/server';
import type { VisitorClaims } from '../auth/visitor-token.ts';
import type { Context } from '../trpc/trpc.ts';
import type { Slot } from './stream-slots.ts';
import { tooManyRequests } from './too-many-requests.ts';

type VisitorContext = Context & { visitor: VisitorClaims };

/**
 * `session.start`: per client address and site. Call it first, before any work; an unknown
 * site key counts under the deployment's limits, so guessing keys is limited too.
 * @example await limitSessionStart(ctx, input.siteKey)
 */
export async function limitSessionStart(ctx: Context, siteKey: string): Promise<void> {
  const site = await ctx.services.sites.byKey(siteKey);
  const over = await ctx.services.limits.sessionStart(site?.id ?? null, ctx.ip);
  if (over) throw tooManyRequests(ctx, over);
}

/**
 * `message.send`: the visitor's burst and sustained windows, and the client address's window
 * across visitors. A middleware placed before the input, so invalid sends count too.
 * @example send: visitorProcedure.use(limitSends).input(…)
 */
export const limitSends = experimental_trpcMiddleware<{ ctx: VisitorContext }>().create(async ({ ctx, next }) => {
  const over = await ctx.services.limits.send(ctx.visitor, ctx.ip);
  if (over) throw tooManyRequests(ctx, over);
  return next();
});

/**
 * An event stream's slot, per visitor and per client address; release it when the stream
 * ends (a slot that is never released expires after a minute).
 * @example const slot = await openStreamSlot(ctx); try { … } finally { await slot.release() }
 */
export async function openStreamSlot(ctx: VisitorContext): Promise<Slot> {
  const slot = await ctx.services.limits.openStream(ctx.visitor, ctx.ip);
  if ('reason' in slot) throw tooManyRequests(ctx, slot);
  return slot;
}
