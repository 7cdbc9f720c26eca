import { z } from 'zod';
import { renameConversation } from '../../conversations/rename.ts';
import { titleCosts } from '../../titles/title-costs.ts';
import { notFound, operatorProcedure, router } from '../trpc.ts';
import { conversationTitle, uuid } from '../inputs.ts';

/**
 * The operator API (`Authorization: Bearer $ADMIN_TOKEN`): what the admin dashboard will
 * build on. Operators may act on any site's conversations.
 */
export const adminRouter = router({
  /** An operator's rename: manual, so it wins over any generated title, like a visitor's. */
  renameConversation: operatorProcedure.input(z.strictObject({ conversationId: uuid, title: conversationTitle })).mutation(async ({ ctx, input }) => {
    const conv = await ctx.services.db.conversation.findUnique({ where: { id: input.conversationId }, select: { siteId: true } });
    if (!conv) throw notFound('conversation');
    const conversation = await renameConversation(ctx.services, { conversationId: input.conversationId, title: input.title, by: { operatorSiteId: conv.siteId } });
    if (!conversation) throw notFound('conversation');
    return conversation;
  }),

  /** Title checks since `since` (default: the last 24 hours), newest first, with their total cost. */
  titleChecks: operatorProcedure
    .input(z.strictObject({ since: z.string().datetime({ offset: true }).optional(), limit: z.number().int().min(1).max(500).default(100) }).optional())
    .query(({ ctx, input }) =>
      titleCosts(ctx.services.db, { since: input?.since ? new Date(input.since) : new Date(Date.now() - 24 * 3600_000), limit: input?.limit ?? 100 }),
    ),
});
