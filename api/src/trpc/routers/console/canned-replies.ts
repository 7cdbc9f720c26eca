import { z } from 'zod';
import { cannedInput, cannedRepliesOf, removeCannedReply, saveCannedReply } from '../../../inbox/canned-replies.ts';
import { notFound } from '../../../errors/refusal.ts';
import { uuid } from '../../../inputs/fields.ts';
import { assertSiteInScope, consoleProcedure, ownerProcedure } from '../../console-procedure.ts';
import { router } from '../../trpc.ts';

/**
 * console.cannedReplies: a site's saved answers, which every operator of the site inserts in
 * the reply box by typing `/` and the shortcut; owners write them.
 */
export const cannedRepliesRouter = router({
  /** The site's canned replies by shortcut. */
  list: consoleProcedure.input(z.strictObject({ siteId: uuid })).query(({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    return cannedRepliesOf(ctx.services.db, input.siteId);
  }),

  /** Creates a canned reply, or changes the one `id` names. */
  save: ownerProcedure.input(cannedInput).mutation(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    if (!(await ctx.services.db.site.count({ where: { id: input.siteId } }))) throw notFound('site');
    return saveCannedReply(ctx.services.db, input);
  }),

  /** Removes a canned reply. */
  remove: ownerProcedure.input(z.strictObject({ siteId: uuid, id: uuid })).mutation(async ({ ctx, input }) => {
    assertSiteInScope(ctx, input.siteId);
    if (!(await removeCannedReply(ctx.services.db, input))) throw notFound('canned reply');
    return { removed: true as const };
  }),
});
