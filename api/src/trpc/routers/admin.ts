import { z } from 'zod';
import { renameConversation } from '../../conversations/rename.ts';
import { titleCosts } from '../../titles/title-costs.ts';
import { operatorProcedure, router } from '../trpc.ts';
import { notFound } from '../../errors/refusal.ts';
import { conversationTitle, siteKey, timestamp, uuid } from '../../inputs/fields.ts';
import { limitOverrides } from '../../limits/site-limits.ts';
import { siteUsageReport } from '../../limits/usage-report.ts';

/**
 * The operator API (`Authorization: Bearer $ADMIN_TOKEN`): what the admin dashboard will
 * build on. Operators may act on any site's conversations.
 */
export const adminRouter = router({
  /** An operator's rename: manual, so it wins over any generated title, like a visitor's. */
  renameConversation: operatorProcedure
    .input(z.strictObject({ conversationId: uuid, title: conversationTitle }))
    .mutation(async ({ ctx, input }) => {
      const conv = await ctx.services.db.conversation.findUnique({ where: { id: input.conversationId }, select: { siteId: true } });
      if (!conv) throw notFound('conversation');
      const conversation = await renameConversation(ctx.services, {
        conversationId: input.conversationId,
        title: input.title,
        by: { operatorSiteId: conv.siteId },
      });
      if (!conversation) throw notFound('conversation');
      return conversation;
    }),

  /** Title checks since `since` (default: the last 24 hours), newest first, with their total cost. */
  titleChecks: operatorProcedure
    .input(z.strictObject({ since: timestamp.optional(), limit: z.number().int().min(1).max(500).default(100) }).optional())
    .query(({ ctx, input }) =>
      titleCosts(ctx.services.db, {
        since: input?.since ? new Date(input.since) : new Date(Date.now() - 24 * 3600_000),
        limit: input?.limit ?? 100,
      }),
    ),

  /**
   * A site's model use per UTC day (requests, tokens, USD, replies refused at the cap) for
   * the last `days` (default 7, today first), its daily spend cap and whether today reached
   * it, and its rate limits (effective, and the site's own overrides).
   */
  siteUsage: operatorProcedure
    .input(z.strictObject({ siteKey, days: z.number().int().min(1).max(90).default(7) }))
    .query(async ({ ctx, input }) => {
      const { config } = ctx.services;
      const report = await siteUsageReport(ctx.services.db, {
        ...input,
        defaultCapUsd: config.SPEND_CAP_USD_PER_DAY,
        deploymentLimits: config.RATE_LIMITS,
      });
      if (!report) throw notFound('site');
      return report;
    }),

  /**
   * Sets a site's rate-limit overrides (`limits` replaces the stored ones; `{}` goes back to
   * the defaults) and/or its daily spend cap in USD (`null`: the deployment's default). Every
   * process applies the change within seconds, without a restart. Answers like `siteUsage`.
   */
  setSiteLimits: operatorProcedure
    .input(
      z.strictObject({
        siteKey,
        limits: limitOverrides.optional(),
        dailySpendCapUsd: z.number().min(0).max(1_000_000).nullable().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { db, config, sites } = ctx.services;
      const site = await db.site.findUnique({ where: { key: input.siteKey }, select: { id: true } });
      if (!site) throw notFound('site');
      await db.site.update({
        where: { id: site.id },
        data: {
          ...(input.limits === undefined ? {} : { limits: input.limits }),
          ...(input.dailySpendCapUsd === undefined ? {} : { dailySpendCapUsd: input.dailySpendCapUsd }),
        },
        select: { id: true },
      });
      sites.clear();
      const report = await siteUsageReport(db, {
        siteKey: input.siteKey,
        days: 1,
        defaultCapUsd: config.SPEND_CAP_USD_PER_DAY,
        deploymentLimits: config.RATE_LIMITS,
      });
      if (!report) throw notFound('site');
      return report;
    }),
});
