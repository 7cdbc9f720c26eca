import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { signVisitorToken, verifyVisitorToken } from '../../auth/visitor-token.ts';
import { publicProcedure, router } from '../trpc.ts';
import { timeZone } from '../inputs.ts';

export const sessionRouter = router({
  /**
   * Starts an anonymous visitor session for a site, or resumes the one the token names.
   * A token for another site (or a forged one) starts a fresh visitor instead of failing,
   * so a widget with stale storage always recovers.
   */
  start: publicProcedure
    .input(z.strictObject({ siteKey: z.string().min(1).max(64), visitorToken: z.string().max(300).optional(), timeZone: timeZone.optional() }))
    .mutation(async ({ ctx, input }) => {
      const { db, config } = ctx.services;
      const site = await db.site.findUnique({ where: { key: input.siteKey }, select: { id: true, name: true } });
      if (!site) throw new TRPCError({ code: 'NOT_FOUND', message: 'unknown site key' });
      const claims = input.visitorToken ? verifyVisitorToken(config.HEED_SECRET, input.visitorToken) : null;
      const known =
        claims && claims.siteId === site.id
          ? await db.visitor.findUnique({ where: { id: claims.visitorId }, select: { id: true } })
          : null;
      const visitor = known
        ? await db.visitor.update({
            where: { id: known.id },
            data: { lastSeenAt: new Date(), ...(input.timeZone ? { timeZone: input.timeZone } : {}) },
            select: { id: true, timeZone: true },
          })
        : await db.visitor.create({ data: { siteId: site.id, timeZone: input.timeZone ?? 'UTC' }, select: { id: true, timeZone: true } });
      return {
        visitorToken: signVisitorToken(config.HEED_SECRET, { visitorId: visitor.id, siteId: site.id }),
        visitorId: visitor.id,
        timeZone: visitor.timeZone,
        site: { name: site.name },
        resumed: !!known,
      };
    }),
});
